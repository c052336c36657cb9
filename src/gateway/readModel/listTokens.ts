import type { SqlDatabase, SqlValue } from '../store/SqlDatabase.ts'
import { type TokenSort, tokenSortColumns } from './tokenSorts.ts'
import type { TokenRow } from './TokenRow.ts'

export type ListTokensParameters = {
  db: SqlDatabase
  sort: TokenSort
  limit: number
  /** The last row of the previous page: its sort key, chain id and address. */
  after?: [string | number, number, string]
  chainId?: number
  creator?: string
  /** Lowercased search text: a name or symbol containing it, or an exact address. */
  search?: string
}

/**
 * One page of tokens in a sort's order (`tokenSortColumns`), keyset-paged: the next page starts
 * strictly after `after` in that order, so pages never repeat or skip a row while the order holds.
 *
 * @example
 * const rows = await listTokens({ db, sort: 'market_cap', limit: 25 })
 * // → up to 25 TokenRows, largest market cap first
 */
export async function listTokens({ db, sort, limit, after, chainId, creator, search }: ListTokensParameters): Promise<TokenRow[]> {
  const { column, descending } = tokenSortColumns[sort]
  const where: string[] = []
  const params: SqlValue[] = []
  const param = (value: SqlValue) => {
    params.push(value)
    return `$${params.length}`
  }
  if (chainId !== undefined) where.push(`chain_id = ${param(chainId)}`)
  if (creator !== undefined) where.push(`creator = ${param(creator)}`)
  if (search !== undefined) {
    const like = param(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    where.push(`(lower(name) LIKE ${like} ESCAPE '\\' OR lower(symbol) LIKE ${like} ESCAPE '\\' OR address = ${param(search)})`)
  }
  // Ties are broken by chain id, then address, in the key's own direction: one direction over
  // the whole ORDER BY lets both engines walk the sort's index (forwards or backwards) instead of
  // sorting every row.
  const op = descending ? '<' : '>'
  const direction = descending ? 'DESC' : 'ASC'
  if (after) {
    const [key, afterChain, afterAddress] = after
    const k = param(key)
    const c = param(afterChain)
    where.push(
      `(${column} ${op} ${k} OR (${column} = ${k} AND (chain_id ${op} ${c} OR (chain_id = ${c} AND address ${op} ${param(afterAddress)}))))`,
    )
  }
  const sql = `SELECT * FROM tokens ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${column} ${direction}, chain_id ${direction}, address ${direction} LIMIT ${param(limit)}`
  return db.query<TokenRow>(sql, params)
}
