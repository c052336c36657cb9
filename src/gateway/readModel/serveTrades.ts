import { getAddress } from 'viem'
import { finalityOf } from '../http/finalityOf.ts'
import { marketCapOf } from '../indexer/marketCapOf.ts'
import { cursorPosition } from '../routes/readCursor.ts'
import { readChainStates } from './readChainStates.ts'
import { readTokenRow } from './readTokenRow.ts'
import type { TokenPageParameters } from './PageParameters.ts'

/**
 * A page of a token's trades, newest first (block, then log index, descending), keyset-paged.
 * Trades only append, so the ordering never changes version (a reorganisation removes trades,
 * and a cursor past them still continues in order). Each trade's price is that of one whole
 * token right after it, from the pool's price the swap left.
 *
 * @example
 * return serveTrades({ request, deps, route: 'tokens.trades', filters, chainId, token, limit: 25 })
 * // → { data: [{ chain_id, token, tx_hash, side, trader, …, price }, newest first], page: { limit: 25, next_cursor }, meta }
 */
export async function serveTrades({ request, deps, route, filters, chainId, token, limit }: TokenPageParameters) {
  const row = await readTokenRow({ db: deps.db, chainId, token })
  const after = cursorPosition({ request, version: 0 }) as [number, number] | undefined
  const rows = await deps.db.query<{
    tx_hash: string
    log_index: number
    block_number: number
    block_time: number
    side: string
    trader: string
    amount_token: string
    amount_paired: string
    sqrt_price_x96: string
  }>(
    `SELECT tx_hash, log_index, block_number, block_time, side, trader, amount_token, amount_paired, sqrt_price_x96 FROM trades
      WHERE chain_id = $1 AND token = $2 ${after ? 'AND (block_number < $4 OR (block_number = $4 AND log_index < $5))' : ''}
      ORDER BY block_number DESC, log_index DESC LIMIT $3`,
    after ? [chainId, token, limit + 1, after[0], after[1]] : [chainId, token, limit + 1],
  )
  const state = (await readChainStates({ db: deps.db })).get(chainId)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const one = 10n ** BigInt(row.decimals)
  return {
    data: page.map((t) => ({
      chain_id: chainId,
      token: getAddress(token),
      tx_hash: t.tx_hash,
      log_index: Number(t.log_index),
      block_number: Number(t.block_number),
      timestamp: new Date(Number(t.block_time) * 1000).toISOString(),
      side: t.side as 'buy' | 'sell',
      trader: getAddress(t.trader),
      amount_token: t.amount_token,
      amount_paired: t.amount_paired,
      price_raw: marketCapOf({
        totalSupply: one,
        sqrtPriceX96: BigInt(t.sqrt_price_x96),
        tokenIsToken0: row.token_is_token0 === 1,
      }).toString(),
      finality: finalityOf({ block: Number(t.block_number), safe: state?.safe ?? 0, finalized: state?.finalized ?? 0 }),
    })),
    page: {
      limit,
      next_cursor:
        rows.length > limit && last
          ? deps.cursors.encode({ route, filters, version: 0, position: [Number(last.block_number), Number(last.log_index)] })
          : null,
    },
    meta: { generated_at: new Date(deps.now()).toISOString(), ...(state ? { observed_block: state.block } : {}) },
  }
}
