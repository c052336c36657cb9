import type { QuoteRoutePlan } from '../quote/quoteTypes.ts'

/**
 * The L1 data fee our own plan carries: /quote's `gasEstimate.gasCostWei` is its L2 gas at the
 * block's gas price plus the L1 fee of its calldata, so the fee is what is left after the L2 part
 * (`gasPriceWei`: the price the plan was costed at, the market's block's). At least 0.
 *
 * @example
 * planL1FeeWei(plan, 5_000_000n) // 7_800_000_000n on Base at 2025 parameters
 */
export function planL1FeeWei(plan: QuoteRoutePlan, gasPriceWei: bigint): bigint {
  const l1 = BigInt(plan.gasEstimate.gasCostWei) - BigInt(plan.gasEstimate.gasUnits) * gasPriceWei
  return l1 > 0n ? l1 : 0n
}
