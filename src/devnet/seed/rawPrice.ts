import type { MarketToken } from './baseMarketTokens.ts'

export type RawPriceParameters = { token0: MarketToken; token1: MarketToken; offset?: number }

/**
 * Price of token0 in token1, in raw units (token1 base units per token0 base unit), optionally
 * moved by a relative `offset` (0.002 = +0.2 %). Float: it only shapes the seeded market.
 *
 * @example
 * rawPrice({ token0: usdc, token1: weth }) // 1/3000 × 1e12
 */
export function rawPrice({ token0, token1, offset = 0 }: RawPriceParameters): number {
  return (token0.priceUsd / token1.priceUsd) * 10 ** (token1.decimals - token0.decimals) * (1 + offset)
}
