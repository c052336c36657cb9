/** The token sort values of spec §2. */
export const TOKEN_SORTS = ['newest', 'oldest', 'trending', 'liquidity', 'market_cap', 'volume_24h'] as const
export type TokenSort = (typeof TOKEN_SORTS)[number]

/** How each sort orders the `tokens` table: its key column and direction; ties by chain id, then address, in the same direction. */
export const tokenSortColumns: Record<TokenSort, { column: string; descending: boolean; numeric: boolean }> = {
  newest: { column: 'launched_at', descending: true, numeric: true },
  oldest: { column: 'launched_at', descending: false, numeric: true },
  trending: { column: 'trending_score', descending: true, numeric: true },
  liquidity: { column: 'liquidity_key', descending: true, numeric: false },
  market_cap: { column: 'market_cap_key', descending: true, numeric: false },
  volume_24h: { column: 'volume_24h_key', descending: true, numeric: false },
}
