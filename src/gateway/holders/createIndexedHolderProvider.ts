import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { type HolderPage, type HolderProvider, HolderProviderUnavailableError } from './HolderProvider.ts'

export type CreateIndexedHolderProviderParameters = {
  db: SqlDatabase
  /** Farther behind the chain head than this, the snapshot would be stale: the provider is down. Default 30 blocks (a minute on Base). */
  maxLagBlocks?: number
  /** An indexer that has not polled for this long is down too. Default 60 s. */
  maxSilenceMs?: number
  now?: () => number
}

/**
 * The holder provider of this deployment: the indexer's balances, served only while the indexer
 * keeps up with the chain. Behind by more than `maxLagBlocks`, or silent for `maxSilenceMs`, it
 * refuses (`HolderProviderUnavailableError`) rather than serve an older snapshot.
 *
 * @example
 * const holders = createIndexedHolderProvider({ db })
 * const page = await holders.page({ chainId: 8453, token: '0xabc…', limit: 50 })
 * // → { snapshotBlock, version, holderCount, totalSupply, holders: [{ address, balance, balanceKey }, … 50] }; HolderProviderUnavailableError when the indexer lags
 */
export function createIndexedHolderProvider({
  db,
  maxLagBlocks = 30,
  maxSilenceMs = 60_000,
  now = Date.now,
}: CreateIndexedHolderProviderParameters): HolderProvider {
  return {
    page: async ({ chainId, token, limit, after }): Promise<HolderPage> => {
      const [state] = await db.query<{ block_number: number; head_block: number; updated_at: string }>(
        'SELECT block_number, head_block, updated_at FROM indexer_state WHERE chain_id = $1',
        [chainId],
      )
      if (!state) throw new HolderProviderUnavailableError('no snapshot yet')
      if (state.head_block - state.block_number > maxLagBlocks)
        throw new HolderProviderUnavailableError(`${state.head_block - state.block_number} blocks behind`)
      if (now() - Date.parse(state.updated_at) > maxSilenceMs) throw new HolderProviderUnavailableError('not updated recently')
      const [t] = await db.query<{ total_supply: string; holder_count: number; holders_block: number }>(
        'SELECT total_supply, holder_count, holders_block FROM tokens WHERE chain_id = $1 AND address = $2',
        [chainId, token],
      )
      if (!t) return { snapshotBlock: state.block_number, version: 0, holderCount: 0, totalSupply: '0', holders: [] }
      const rows = after
        ? await db.query<{ holder: string; balance: string; balance_key: string }>(
            `SELECT holder, balance, balance_key FROM balances WHERE chain_id = $1 AND token = $2 AND balance <> '0'
               AND (balance_key < $3 OR (balance_key = $3 AND holder > $4)) ORDER BY balance_key DESC, holder ASC LIMIT $5`,
            [chainId, token, after.balanceKey, after.address, limit],
          )
        : await db.query<{ holder: string; balance: string; balance_key: string }>(
            "SELECT holder, balance, balance_key FROM balances WHERE chain_id = $1 AND token = $2 AND balance <> '0' ORDER BY balance_key DESC, holder ASC LIMIT $3",
            [chainId, token, limit],
          )
      return {
        snapshotBlock: state.block_number,
        version: t.holders_block,
        holderCount: t.holder_count,
        totalSupply: t.total_supply,
        holders: rows.map((r) => ({ address: r.holder, balance: r.balance, balanceKey: r.balance_key })),
      }
    },
  }
}
