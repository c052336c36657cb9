import { afterAll, beforeAll } from 'vitest'
import type { Address } from 'viem'
import type { Solver } from '../../bindings/types.ts'
import { type Devnet, startDevnet } from '../../src/devnet/startDevnet.ts'
import { loadSolverUnderTest } from './loadSolverUnderTest.ts'

export type DifferentialSession = {
  /** The suite's chain, started by its `before` hook. */
  readonly devnet: Devnet
  /** The solver under test once `loadSolver` ran, or undefined with the reason in `solverMissing`. */
  readonly solver: Solver | undefined
  readonly solverMissing: string
  /** Loads the solver under test (a suite must then FAIL, never skip, if it is missing). */
  loadSolver: (nativeToken: Address) => Promise<Solver | undefined>
}

/**
 * The chain and solver of one differential suite: a fresh devnet before the suite's tests, the
 * solver and the chain stopped after them. Call it at the top level of the suite (it registers
 * vitest hooks).
 *
 * @example
 * const session = useDifferentialSession()
 * test('…', async () => { const { devnet } = session; const solver = await session.loadSolver(weth) })
 * // session.devnet: this suite's fresh chain; loadSolver → the solver (undefined and why, while it does not load)
 */
export function useDifferentialSession(): DifferentialSession {
  let devnet: Devnet | undefined
  let solver: Solver | undefined
  let solverMissing = ''
  beforeAll(async () => {
    devnet = await startDevnet({})
  })
  afterAll(async () => {
    await solver?.close()
    await devnet?.stop()
  })
  return {
    get devnet() {
      if (!devnet) throw new Error('the differential devnet is started by the suite’s before hook')
      return devnet
    },
    get solver() {
      return solver
    },
    get solverMissing() {
      return solverMissing
    },
    loadSolver: async (nativeToken) => {
      const loaded = await loadSolverUnderTest({ nativeToken })
      if (loaded.solver) solver = loaded.solver
      else solverMissing = loaded.reason
      return solver
    },
  }
}
