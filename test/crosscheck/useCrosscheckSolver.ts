import { afterAll, beforeAll } from 'vitest'
import type { Address } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'

/** The two tokens every cross-check pool trades (token0 < token1, as the protocols sort them). */
export const CROSSCHECK_TOKENS = {
  token0: '0x1000000000000000000000000000000000000001',
  token1: '0x2000000000000000000000000000000000000002',
} as const satisfies Record<string, Address>

/**
 * A solver of its own for a cross-check file, loaded before its tests and closed after them: the
 * cross-checks feed it thousands of synthetic pools and only ever `simulate` one pool at a time.
 *
 * @example
 * const solver = useCrosscheckSolver()
 * test('...', async () => { await solver().upsertPools(pools) })
 * // solver() → this file's own Solver, loaded before its tests and closed after them
 */
export function useCrosscheckSolver(): () => Solver {
  let solver: Solver | undefined
  beforeAll(async () => {
    solver = await loadSolver({ nativeToken: CROSSCHECK_TOKENS.token0 })
  })
  afterAll(async () => {
    await solver?.close()
  })
  return () => {
    if (!solver) throw new Error('the cross-check solver is used before beforeAll loaded it')
    return solver
  }
}
