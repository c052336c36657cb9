import { getAddress } from 'viem'
import { finalityOf } from '../http/finalityOf.ts'
import { presentTokenIdentity } from './presentTokenIdentity.ts'
import { marketCapOf } from '../indexer/marketCapOf.ts'
import type { ChainState } from './readChainStates.ts'
import type { TokenRow } from './TokenRow.ts'

/**
 * A `tokens` row as the API's `TokenSummary`: checksummed addresses, ISO times, the price of one
 * whole token from the pool's current state, the ranked values of the last refresh, and the
 * finality of the token's last change.
 *
 * @example
 * const summary = presentTokenSummary({ row, state })
 * // → { chain_id, address, name, symbol, …, launched_at: ISO, pool: { dex: 'uniswap_v3', … }, market, block_number, finality, updated_at }
 */
export function presentTokenSummary({ row, state }: { row: TokenRow; state: ChainState | undefined }) {
  return {
    ...presentTokenIdentity(row),
    launched_at: new Date(row.launched_at * 1000).toISOString(),
    pool: { address: getAddress(row.pool), dex: 'uniswap_v3' as const, fee_pips: row.pool_fee, paired_token: getAddress(row.paired_token) },
    market: presentMarket(row),
    block_number: row.changed_block,
    finality: finalityOf({ block: row.changed_block, safe: state?.safe ?? 0, finalized: state?.finalized ?? 0 }),
    updated_at: row.updated_at,
  }
}

/** The token's market values (price live from the pool state; the rest ranked). */
export function presentMarket(row: TokenRow) {
  return {
    price_raw: marketCapOf({
      totalSupply: 10n ** BigInt(row.decimals),
      sqrtPriceX96: BigInt(row.sqrt_price_x96),
      tokenIsToken0: row.token_is_token0 === 1,
    }).toString(),
    market_cap_raw: row.market_cap,
    liquidity_raw: row.liquidity,
    volume_24h_raw: row.volume_24h,
    trades_24h: Number(row.trades_24h),
    holder_count: Number(row.holder_count),
    trending_score: Number(row.trending_score),
    ranked_at: row.ranked_at,
  }
}
