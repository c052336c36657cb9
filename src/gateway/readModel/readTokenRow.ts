import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import type { TokenRow } from './TokenRow.ts'

/**
 * One launched token's row, or `not_found` (404) naming the resource, chain and address: a
 * token this launchpad did not launch is not tracked here, whatever the chain holds.
 *
 * @example
 * const row = await readTokenRow({ db, chainId: 8453, token: '0xabc…' })
 * // → the tokens row; GatewayProblem 'not_found' (404) for a token not launched here
 */
export async function readTokenRow({ db, chainId, token }: { db: SqlDatabase; chainId: number; token: string }): Promise<TokenRow> {
  const [row] = await db.query<TokenRow>('SELECT * FROM tokens WHERE chain_id = $1 AND address = $2', [chainId, token])
  if (!row) {
    throw new GatewayProblem('not_found', {
      detail: `No token ${token} launched here on chain ${chainId}.`,
      resource: 'token',
      chainId,
      tokenAddress: token,
      suggestedEndpoint: `/tokens/search?q=${token}`,
    })
  }
  return row
}
