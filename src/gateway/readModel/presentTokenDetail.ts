import { getAddress } from 'viem'
import { finalityOf } from '../http/finalityOf.ts'
import { presentTokenIdentity } from './presentTokenIdentity.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { presentMarket } from './presentTokenSummary.ts'
import type { ChainState } from './readChainStates.ts'
import type { TokenRow } from './TokenRow.ts'

/**
 * A token in full (`TokenDetail`): its row, its launch, its pool and locked position, its reward
 * recipients and vesting allocations from the read model, and the metadata document its
 * `extra_metadata` names when the gateway holds that document (null otherwise: an unknown CID
 * or a value that is not `ipfs://<cid>`).
 *
 * @example
 * const detail = await presentTokenDetail({ db, row, state })
 * // → the summary's fields with reward recipients, vesting allocations and the metadata document (or null)
 */
export async function presentTokenDetail({ db, row, state }: { db: SqlDatabase; row: TokenRow; state: ChainState | undefined }) {
  const [recipients, vesting, document] = await Promise.all([
    db.query<{ recipient: string; bps: number }>(
      'SELECT recipient, bps FROM fee_positions WHERE chain_id = $1 AND token = $2 ORDER BY position_index',
      [row.chain_id, row.address],
    ),
    db.query<{ position_id: number; beneficiary: string; amount: string; lockup_end: number; vesting_end: number }>(
      'SELECT position_id, beneficiary, amount, lockup_end, vesting_end FROM vesting_positions WHERE chain_id = $1 AND token = $2 ORDER BY position_id',
      [row.chain_id, row.address],
    ),
    row.extra_metadata.startsWith('ipfs://')
      ? db.query<{ content: string }>('SELECT content FROM documents WHERE cid = $1', [row.extra_metadata.slice('ipfs://'.length)])
      : Promise.resolve([]),
  ])
  const iso = (seconds: number) => new Date(Number(seconds) * 1000).toISOString()
  return {
    ...presentTokenIdentity(row),
    metadata: document[0] ? JSON.parse(document[0].content) : null,
    launch: {
      tx_hash: row.launch_tx,
      block_number: Number(row.launch_block),
      launched_at: iso(row.launched_at),
      factory: getAddress(row.factory),
      salt: row.salt,
      starting_tick: row.starting_tick,
      pool_supply: row.pool_supply,
      vesting_supply: row.vesting_supply,
      dev_buy:
        row.dev_buy_amount_in !== null && row.dev_buy_amount_out !== null
          ? { amount_in: row.dev_buy_amount_in, amount_out: row.dev_buy_amount_out }
          : null,
    },
    pool: {
      address: getAddress(row.pool),
      dex: 'uniswap_v3' as const,
      fee_pips: row.pool_fee,
      tick_spacing: row.tick_spacing,
      paired_token: getAddress(row.paired_token),
      token_is_token0: row.token_is_token0 === 1,
      sqrt_price_x96: row.sqrt_price_x96,
      tick: row.tick,
      locked_position: { tick_lower: row.tick_lower, tick_upper: row.tick_upper, liquidity: row.position_liquidity },
    },
    market: presentMarket(row),
    trade_count: Number(row.trade_count),
    reward_recipients: recipients.map((r) => ({ recipient: getAddress(r.recipient), bps: r.bps })),
    vesting: vesting.map((v) => ({
      position_id: Number(v.position_id),
      beneficiary: getAddress(v.beneficiary),
      amount: v.amount,
      lockup_ends_at: iso(v.lockup_end),
      vesting_ends_at: iso(v.vesting_end),
    })),
    block_number: Number(row.changed_block),
    finality: finalityOf({ block: Number(row.changed_block), safe: state?.safe ?? 0, finalized: state?.finalized ?? 0 }),
    updated_at: row.updated_at,
  }
}
