import { getAddress } from 'viem'
import type { TokenRow } from './TokenRow.ts'

const ZERO = '0x0000000000000000000000000000000000000000'

/**
 * The fields every view of a token starts with (`tokenIdentity` of the schemas): checksummed
 * addresses, and a null admin once the role was renounced.
 *
 * @example
 * return { ...presentTokenIdentity(row), launched_at }
 * // → { chain_id, address (checksummed), name, symbol, decimals, total_supply, creator, admin: null once renounced, extra_metadata, launched_at }
 */
export function presentTokenIdentity(row: TokenRow) {
  return {
    chain_id: row.chain_id,
    address: getAddress(row.address),
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    total_supply: row.total_supply,
    creator: getAddress(row.creator),
    admin: row.admin === ZERO ? null : getAddress(row.admin),
    extra_metadata: row.extra_metadata,
  }
}
