/** The categories `swap_market_pools_left_out_by_reason` counts, in the order they are matched. */
const CATEGORIES: [category: string, pattern: RegExp][] = [
  ['deny_list', /deny list/],
  ['token_behaviour', /fee on transfer|rounding|rebas|interest|transfer reverts|reverted in the simulation|moves other amounts/],
  ['hooks', /hooks/],
  ['solver_refused', /solver refused/],
  // A prop AMM closed for the block (createPropAmmAdapter's reasons).
  ['venue_closed', /: paused$|: stale: the operator|: trading disabled$|samples not monotone|quotes nothing either way/],
  ['liquidity', /below the floor|cannot be valued|no chain of pools|liquidity/],
  ['unreadable', /revert|could not be read|unreadable|read failed|no code/],
]

/**
 * The category of a left-out pool's reason (the market's free-text reason, e.g. `left out at block
 * N: liquidity 12 wei of WETH is below the floor …`), for a metric label with few values: never
 * the reason itself, which names addresses and amounts.
 *
 * @example
 * leftOutCategory('left out at block 9: token 0x… is on the deny list') // 'deny_list'
 */
export function leftOutCategory(reason: string): string {
  return CATEGORIES.find(([, pattern]) => pattern.test(reason))?.[0] ?? 'other'
}
