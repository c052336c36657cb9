import assert from 'node:assert/strict'
import { afterAll, beforeAll } from 'vitest'
import type { Solver } from '../../bindings/types.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { type Devnet, startDevnet } from '../../src/devnet/startDevnet.ts'
import type { DifferentialLedger } from './createDifferentialLedger.ts'
import { createPrng, type Prng } from './createPrng.ts'
import { loadSolverUnderTest } from './loadSolverUnderTest.ts'

export type DifferentialSession = {
  /** The suite's chain, started by its `before` hook. */
  readonly devnet: Devnet
  /** The solver under test once `start` ran, or undefined with the reason in `solverMissing`. */
  readonly solver: Solver | undefined
  readonly solverMissing: string
  /**
   * Starts the suite's test: deploys WETH9 as the native token, loads the solver under test with it
   * (a suite must then FAIL, never skip, if it is missing) and seeds the suite's generator.
   */
  start: (parameters: { seed: number }) => Promise<{ devnet: Devnet; prng: Prng; solver: Solver | undefined }>
  /**
   * The suite's verdict once its cases ran: at least `minCases` of them, the solver loaded (a suite
   * without it fails, never skips), and no case where the solver and the chain disagreed.
   */
  assertSolverMatchedChain: (parameters: { ledger: DifferentialLedger; minCases: number }) => void
}

/**
 * The chain and solver of one differential suite: a fresh devnet before the suite's tests, the
 * solver and the chain stopped after them. Call it at the top level of the suite (it registers
 * vitest hooks).
 *
 * @example
 * const session = useDifferentialSession()
 * test('…', async () => { const { devnet, prng, solver } = await session.start({ seed: 4004 }) })
 * // devnet: this suite's fresh chain; solver: the solver under test (undefined and why, while it does not load)
 * session.assertSolverMatchedChain({ ledger, minCases: 100 }) // → throws unless ≥ 100 cases ran and the solver agreed with every one
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
    start: async ({ seed }) => {
      if (!devnet) throw new Error('the differential devnet is started by the suite’s before hook')
      const nativeToken = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
      const loaded = await loadSolverUnderTest({ nativeToken })
      if (loaded.solver) solver = loaded.solver
      else solverMissing = loaded.reason
      return { devnet, prng: createPrng({ seed }), solver }
    },
    assertSolverMatchedChain: ({ ledger, minCases }) => {
      assert.ok(ledger.cases() >= minCases, `too few cases: ${ledger.cases()}`)
      assert.ok(solver, `solver not available (${solverMissing}): ${ledger.cases()} chain cases ran without it`)
      assert.deepEqual(ledger.mismatches().slice(0, 5), [], `${ledger.mismatches().length} solver/chain mismatches`)
    },
  }
}
