import type { StandInMarket, StandInTrade } from './StandInApi.ts'

export type ScaledMarketParameters = {
  /** The output of another market for a trade (our own solver's, in the demo); undefined: no route. */
  quote: (trade: StandInTrade) => Promise<bigint | undefined>
  /** Depth relative to that market: 2 means twice as deep (half the price impact at any size). */
  depth: { numerator: bigint; denominator: bigint }
  /** Taken from the output, on top. */
  feeBps: number
  gasUnits: bigint
}

/**
 * A stand-in's liquidity derived from another market: out(a) = quote(a / depth) · depth, less
 * `feeBps`. Concave when that market is (scaling keeps concavity), so each demo upstream has its own
 * price curve, deeper or shallower than ours, without a second market to maintain.
 *
 * @example
 * const market = scaledMarket({ quote: async (t) => t.amountIn, depth: { numerator: 3n, denominator: 2n }, feeBps: 5, gasUnits: 180_000n })
 * await market({ ...trade, amountIn: 3000n }) // → { amountOut: 2998n, gasUnits: 180000n }: 2000 in the 1:1 market, × 3/2, less 5 bps
 */
export function scaledMarket({ quote, depth, feeBps, gasUnits }: ScaledMarketParameters): StandInMarket {
  return async (trade) => {
    const scaledIn = (trade.amountIn * depth.denominator) / depth.numerator
    if (scaledIn === 0n) return undefined
    const out = await quote({ ...trade, amountIn: scaledIn })
    if (out === undefined) return undefined
    const amountOut = (out * depth.numerator * BigInt(10_000 - feeBps)) / (depth.denominator * 10_000n)
    return amountOut > 0n ? { amountOut, gasUnits } : undefined
  }
}
