import type { PoolInput } from '../../../bindings/types.ts'
import { virtualReserves } from './virtualReserves.ts'

const Q128 = 2n ** 128n

/**
 * A pool's depth in WETH wei: twice its thinnest priced side (each side's reserve, virtual for
 * concentrated pools, each token's for a WOOFi vault, a Curve pool's balance per coin, at its
 * token's price), or twice its one priced side. Undefined when neither
 * token has a price or the venue has no reserves (sampled).
 *
 * @example
 * poolDepthWei({ pool, prices }) // 2n * 10n ** 18n: 1 WETH on its thinner side
 */
export function poolDepthWei({ pool, prices }: { pool: PoolInput; prices: ReadonlyMap<string, bigint> }): bigint | undefined {
  // A WOOFi vault's sides are its tokens' reserves (the quote token's and each base's); a Curve
  // pool's, its balance per coin.
  const reserves =
    pool.state.model === 'woofi'
      ? pool.state.tokens.map((t) => BigInt(t.reserve))
      : pool.state.model === 'stableswap'
        ? // A meta pool's venue: its coin's balance, then the base pool's per coin (its tokens' order).
          (pool.state.base ? [pool.state.balances[0], ...pool.state.base.balances] : pool.state.balances).map(BigInt)
        : virtualReserves(pool)
  if (!reserves) return undefined
  let thinnest: bigint | undefined
  for (let i = 0; i < reserves.length; i++) {
    const price = prices.get(pool.tokens[i].toLowerCase())
    if (price === undefined) continue
    const value = (reserves[i] * price) / Q128
    if (thinnest === undefined || value < thinnest) thinnest = value
  }
  return thinnest === undefined ? undefined : 2n * thinnest
}
