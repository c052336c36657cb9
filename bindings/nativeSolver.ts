import { createRequire } from 'node:module'
import { SolverError } from './errors.ts'
import type {
  BlockResult,
  BlockUpdate,
  PoolInput,
  SimulateRequest,
  SimulateResult,
  Solver,
  SolverConfig,
  SolverPlan,
  SolverQuoteRequest,
  UpsertResult,
  WaterfillPlan,
} from './types.ts'

/** The addon's class, as `solver-rs/src/ffi/napi.rs` exports it. */
type NativeModule = {
  NativeSolver: new (config: string) => {
    applyBlock(update: string): Promise<string>
    upsertPools(pools: string): Promise<string>
    removePools(ids: string): Promise<string>
    quote(request: string): Promise<string>
    simulate(request: string): Promise<string>
    waterfill(request: string): Promise<string>
  }
}

/** napi-rs names the binary after the platform triple; we build the glibc Linux one (`solver.linux-x64-gnu.node`). */
export function nativeAddonPath(): string {
  const libc = process.platform === 'linux' ? '-gnu' : ''
  return `./native/solver.${process.platform}-${process.arch}${libc}.node`
}

/**
 * Loads the native addon and creates a solver on it. Throws if the addon is missing or does not
 * load on this platform.
 *
 * @example
 * ```ts
 * import { createNativeSolver } from './nativeSolver.ts'
 * const solver = createNativeSolver({ nativeToken: '0x4200000000000000000000000000000000000006' })
 * // → a Solver with backend 'native'; throws if the addon does not load here
 * ```
 */
export function createNativeSolver(config: SolverConfig): Solver {
  const require = createRequire(import.meta.url)
  const addon = require(nativeAddonPath()) as NativeModule
  let inner: InstanceType<NativeModule['NativeSolver']>
  try {
    inner = new addon.NativeSolver(JSON.stringify(config))
  } catch (err) {
    throw SolverError.from(err)
  }
  const call = async (run: () => Promise<string>): Promise<string> => {
    try {
      return await run()
    } catch (err) {
      throw SolverError.from(err)
    }
  }
  return {
    backend: 'native',
    applyBlock: async (update: BlockUpdate) => JSON.parse(await call(() => inner.applyBlock(JSON.stringify(update)))) as BlockResult,
    upsertPools: async (pools: PoolInput[]) => JSON.parse(await call(() => inner.upsertPools(JSON.stringify(pools)))) as UpsertResult,
    removePools: async (ids: string[]) => JSON.parse(await call(() => inner.removePools(JSON.stringify(ids)))) as UpsertResult,
    quoteJson: (request: SolverQuoteRequest) => call(() => inner.quote(JSON.stringify(request))),
    quote: async (request: SolverQuoteRequest) => JSON.parse(await call(() => inner.quote(JSON.stringify(request)))) as SolverPlan,
    simulate: async (request: SimulateRequest) => JSON.parse(await call(() => inner.simulate(JSON.stringify(request)))) as SimulateResult,
    waterfill: async (request: SolverQuoteRequest) =>
      JSON.parse(await call(() => inner.waterfill(JSON.stringify(request)))) as WaterfillPlan,
    // A panic is caught per call (ffi::guarded) and answered as an internal error; nothing to restart.
    status: () => ({ backend: 'native', state: 'ready', restarts: 0 }),
    close: async () => {},
  }
}
