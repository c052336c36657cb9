export type ApplyIntegratorFeeParameters = {
  /** What the routes pay the router in total (the solver's expectedAmountOut). */
  totalOut: bigint
  feeBps: number
  slippageBps: number
}

export type ApplyIntegratorFeeReturnType = {
  /** `floor(totalOut · feeBps / 10⁴)`: what the fee recipient gets, exactly as the router computes it. */
  feeAmount: bigint
  /** `totalOut − feeAmount`: what the recipient receives. */
  amountOut: bigint
  /** `floor(amountOut · (10⁴ − slippageBps) / 10⁴)`: the router's `minAmountOut` (checked after the fee). */
  minAmountOut: bigint
}

const BPS = 10_000n

/**
 * The integrator fee and slippage floor, in the router's integer arithmetic (`SwapRouter._swap`):
 * the fee is floored, so it never exceeds `feeBps` of the output, and the recipient gets the rest.
 * The minimum is floored too, so it is never above what the recipient gets when nothing moves.
 *
 * @example
 * applyIntegratorFee({ totalOut: 10_001n, feeBps: 30, slippageBps: 50 })
 * // { feeAmount: 30n, amountOut: 9_971n, minAmountOut: 9_921n }
 */
export function applyIntegratorFee({ totalOut, feeBps, slippageBps }: ApplyIntegratorFeeParameters): ApplyIntegratorFeeReturnType {
  const feeAmount = (totalOut * BigInt(feeBps)) / BPS
  const amountOut = totalOut - feeAmount
  const minAmountOut = (amountOut * (BPS - BigInt(slippageBps))) / BPS
  return { feeAmount, amountOut, minAmountOut }
}
