import type { Address } from 'viem'
import type { Solver } from '../../bindings/types.ts'
import type { SolverOutcome } from './createDifferentialLedger.ts'

export type SimulateOutcomeParameters = {
  solver: Solver | undefined
  poolId: string
  tokenIn: Address
  amountIn: bigint
}

/**
 * Asks the solver for one exact-input swap, turning a thrown error into an outcome to judge.
 * Answers `undefined` when there is no solver (the case stays unjudged, and the test fails).
 *
 * @example
 * const outcome = await simulateOutcome({ solver, poolId, tokenIn, amountIn: 10n ** 6n })
 * // → { kind: 'quoted', result } or { kind: 'error', message }; undefined without a solver
 */
export async function simulateOutcome({
  solver,
  poolId,
  tokenIn,
  amountIn,
}: SimulateOutcomeParameters): Promise<SolverOutcome | undefined> {
  if (!solver) return undefined
  try {
    return { kind: 'quoted', result: await solver.simulate({ poolId, tokenIn, amountIn: amountIn.toString() }) }
  } catch (error) {
    return { kind: 'error', message: (error as Error).message }
  }
}
