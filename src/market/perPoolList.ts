import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'

/**
 * `derive` made to run once per pool list the market hands out (`MarketState.pools()` returns the
 * same array until a block changes its pools), not once per call: what a quote derives from the
 * whole market (the kinds present, the DODO pools a taker's rate applies to) is found once a block.
 *
 * @example
 * const kindsOf = perPoolList((pools) => new Set(pools.map((pool) => pool.ref.dex)))
 * kindsOf(market.pools()) // the same Set until the market's pools change
 */
export function perPoolList<T>(derive: (pools: readonly PoolSnapshot[]) => T): (pools: readonly PoolSnapshot[]) => T {
  const derived = new WeakMap<readonly PoolSnapshot[], T>()
  return (pools) => {
    if (!derived.has(pools)) derived.set(pools, derive(pools))
    return derived.get(pools) as T
  }
}
