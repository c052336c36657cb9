import type { Address } from 'viem'
import type { Solver } from '../../bindings/types.ts'

export type LoadSolverUnderTestReturnType = { solver: Solver } | { solver: undefined; reason: string }

/**
 * Loads the solver through `bindings/index.ts`. While that loader or its native addon does not exist
 * yet, answers why instead of throwing, so the harness can still run its independent checks; the
 * caller must then FAIL the solver assertions (never skip them).
 *
 * @example
 * const loaded = await loadSolverUnderTest({ nativeToken: weth })
 * // → { solver } or { solver: undefined, reason: 'why it did not load' }
 */
export async function loadSolverUnderTest({ nativeToken }: { nativeToken: Address }): Promise<LoadSolverUnderTestReturnType> {
  const path = '../../bindings/index.ts'
  try {
    const { loadSolver } = (await import(path)) as { loadSolver: (c: { nativeToken: Address }) => Promise<Solver> }
    return { solver: await loadSolver({ nativeToken }) }
  } catch (error) {
    return { solver: undefined, reason: (error as Error).message.split('\n')[0] }
  }
}
