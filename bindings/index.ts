import { SolverError } from './errors.ts'
import { createNativeSolver } from './nativeSolver.ts'
import type { Solver, SolverConfig } from './types.ts'

export type { Solver, SolverConfig } from './types.ts'
export { SolverError } from './errors.ts'

export type Backend = 'native' | 'wasm'

export type LoadSolverOptions = {
  /** Forces a backend; default: `SOLVER_BACKEND` from the environment, else native with WASM fallback. */
  backend?: Backend
}

/**
 * The one way to get a solver: the native addon when it loads, else the WASM module in a worker.
 * `SOLVER_BACKEND=native|wasm` (or `options.backend`) forces one and fails if it cannot load.
 *
 * @example
 * ```ts
 * import { loadSolver } from './bindings/index.ts'
 * const solver = await loadSolver({ nativeToken: '0x4200000000000000000000000000000000000006' })
 * console.log(solver.backend) // 'native'
 * await solver.close()
 * ```
 */
export async function loadSolver(config: SolverConfig, options: LoadSolverOptions = {}): Promise<Solver> {
  const forced = options.backend ?? parseBackend(process.env.SOLVER_BACKEND)
  if (forced === 'wasm') return loadWasm(config)
  try {
    return createNativeSolver(config)
  } catch (err) {
    // A config the solver refuses is the caller's error on either backend: do not fall back.
    if (forced === 'native' || (err instanceof SolverError && err.kind !== 'internal')) throw err
    return loadWasm(config)
  }
}

async function loadWasm(config: SolverConfig): Promise<Solver> {
  // Imported lazily: the WASM module is only touched when the native addon is unavailable.
  const { createWasmSolver } = await import('./wasmSolver.ts')
  return createWasmSolver(config)
}

function parseBackend(value: string | undefined): Backend | undefined {
  if (value === undefined || value === '') return undefined
  if (value === 'native' || value === 'wasm') return value
  throw new SolverError('invalid input', `must be "native" or "wasm", got ${JSON.stringify(value)}`, { field: 'SOLVER_BACKEND' })
}
