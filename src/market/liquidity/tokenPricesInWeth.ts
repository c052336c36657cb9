import type { Address } from 'viem'
import type { PoolInput } from '../../../bindings/types.ts'
import { poolDepthWei } from './poolDepthWei.ts'
import { virtualReserves } from './virtualReserves.ts'

/** Prices are WETH wei per raw unit of a token, as Q128 fixed point. */
export const PRICE_ONE_X128 = 2n ** 128n

/**
 * Token prices in WETH, spreading out from WETH through pools at least `minLiquidityWei` deep: in
 * rounds, each unpriced token joined by such a pool to a priced one takes the spot price (reserves
 * ratio; virtual reserves for concentrated pools) of the deepest of them. Tokens no such chain of
 * pools reaches stay unpriced. Keys are lowercase addresses; WETH is `PRICE_ONE_X128`.
 *
 * @example
 * const prices = tokenPricesInWeth({ pools, weth, minLiquidityWei: 10n ** 18n })
 * // → Map('<lowercase address>' → price in WETH, X128); weth itself → PRICE_ONE_X128 (2^128)
 */
export function tokenPricesInWeth({
  pools,
  weth,
  minLiquidityWei,
}: {
  pools: readonly PoolInput[]
  weth: Address
  minLiquidityWei: bigint
}): Map<string, bigint> {
  const prices = new Map<string, bigint>([[weth.toLowerCase(), PRICE_ONE_X128]])
  const candidates = pools.flatMap((pool) => {
    const reserves = virtualReserves(pool)
    return reserves && reserves[0] > 0n && reserves[1] > 0n
      ? [{ pool, tokens: [pool.tokens[0].toLowerCase(), pool.tokens[1].toLowerCase()], reserves }]
      : []
  })
  for (;;) {
    const best = new Map<string, { depth: bigint; price: bigint }>()
    for (const c of candidates) {
      const side =
        prices.has(c.tokens[0]) && !prices.has(c.tokens[1]) ? 0 : prices.has(c.tokens[1]) && !prices.has(c.tokens[0]) ? 1 : undefined
      if (side === undefined) continue
      const i: 0 | 1 = side
      const depth = poolDepthWei({ pool: c.pool, prices }) ?? 0n
      if (depth < minLiquidityWei) continue
      const other: 0 | 1 = i === 0 ? 1 : 0
      const price = ((prices.get(c.tokens[i]) as bigint) * c.reserves[i]) / c.reserves[other]
      const unknown = c.tokens[other]
      const current = best.get(unknown)
      if (!current || depth > current.depth) best.set(unknown, { depth, price })
    }
    if (best.size === 0) return prices
    for (const [token, { price }] of best) prices.set(token, price)
  }
}
