import type { StandInMarket, StandInTrade } from './StandInApi.ts'

/** An integrator fee as a stand-in received it: parts per million, from which token. */
export type StandInFee = { ppm: bigint; takenFrom: 'tokenOut' | 'tokenIn' }

/**
 * A stand-in's price for `trade` after an integrator fee, as the API it plays takes it: from the
 * output (`floor(out · ppm / 10⁶)` off what the route pays, which is what it then quotes), or
 * from the input before the swap (the route swaps `amountIn − floor(amountIn · ppm / 10⁶)`).
 * Undefined when the market has no route (or nothing is left to swap).
 *
 * @example
 * await priceWithFee({ market, trade, fee: { ppm: 2_500n, takenFrom: 'tokenOut' } }) // { amountOut, gasUnits, feeAmount }
 */
export async function priceWithFee({
  market,
  trade,
  fee,
}: {
  market: StandInMarket
  trade: StandInTrade
  fee?: StandInFee
}): Promise<{ amountOut: bigint; gasUnits: bigint; feeAmount: bigint } | undefined> {
  if (!fee || fee.ppm === 0n) {
    const priced = await market(trade)
    return priced && { ...priced, feeAmount: 0n }
  }
  if (fee.takenFrom === 'tokenIn') {
    const feeAmount = (trade.amountIn * fee.ppm) / 1_000_000n
    if (feeAmount >= trade.amountIn) return undefined
    const priced = await market({ ...trade, amountIn: trade.amountIn - feeAmount })
    return priced && { ...priced, feeAmount }
  }
  const priced = await market(trade)
  if (!priced) return undefined
  const feeAmount = (priced.amountOut * fee.ppm) / 1_000_000n
  return { amountOut: priced.amountOut - feeAmount, gasUnits: priced.gasUnits, feeAmount }
}
