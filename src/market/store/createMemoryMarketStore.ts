import type { MarketStore, ScanCursor, StoredDepth, StoredPool, StoredToken } from './MarketStore.ts'

/**
 * A market store that lives as long as the process (the embedded chain's default: its market is
 * rebuilt in a second, there is nothing worth keeping across restarts).
 *
 * @example
 * const store = createMemoryMarketStore({ chainId: 8453 })
 * // → an empty MarketStore: { chainId: 8453, pools: () => [], cursors: () => [], tokens: () => [], shallow: () => [], save, close }
 */
export function createMemoryMarketStore({ chainId }: { chainId: number }): MarketStore {
  const cursors = new Map<string, ScanCursor>()
  const pools = new Map<string, StoredPool>()
  const tokens = new Map<string, StoredToken>()
  const shallow = new Map<string, StoredDepth>()
  return {
    chainId,
    cursors: () => [...cursors.values()],
    pools: () => [...pools.values()],
    tokens: () => [...tokens.values()],
    shallow: () => [...shallow.values()],
    save: (update) => {
      for (const pool of update.pools) if (!pools.has(pool.ref.id)) pools.set(pool.ref.id, pool)
      for (const token of update.tokens ?? []) tokens.set(token.address.toLowerCase(), token)
      for (const depth of update.shallow ?? []) shallow.set(depth.id, depth)
      for (const id of update.deep ?? []) shallow.delete(id)
      for (const cursor of update.cursors)
        cursors.set(`${cursor.source.toLowerCase()} ${cursor.dex}`, { ...cursor, ahead: cursor.ahead ?? [] })
    },
    close: () => {},
  }
}
