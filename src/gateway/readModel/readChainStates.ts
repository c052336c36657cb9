import type { SqlDatabase } from '../store/SqlDatabase.ts'

/** Where the indexer of one chain stands: the read model is current at `block`. */
export type ChainState = { block: number; safe: number; finalized: number; blockTimestamp: number }

/**
 * Each chain's indexer position and finality marks, by chain id.
 *
 * @example
 * const states = await readChainStates({ db })
 * states.get(8453)?.block
 * // → the last indexed block on Base (states: Map(chainId → { block, safe, finalized, blockTimestamp }))
 */
export async function readChainStates({ db }: { db: SqlDatabase }): Promise<Map<number, ChainState>> {
  const rows = await db.query<{
    chain_id: number
    block_number: number
    safe_block: number
    finalized_block: number
    block_timestamp: number
  }>('SELECT chain_id, block_number, safe_block, finalized_block, block_timestamp FROM indexer_state')
  return new Map(
    rows.map((r) => [
      r.chain_id,
      {
        block: r.block_number,
        safe: Math.min(r.safe_block, r.block_number),
        finalized: Math.min(r.finalized_block, r.block_number),
        blockTimestamp: r.block_timestamp,
      },
    ]),
  )
}
