import { listTokens } from '../../readModel/listTokens.ts'
import type { PageParameters } from '../../readModel/PageParameters.ts'
import { presentTokenSummary } from '../../readModel/presentTokenSummary.ts'
import { readChainStates } from '../../readModel/readChainStates.ts'
import { type TokenSort, tokenSortColumns } from '../../readModel/tokenSorts.ts'
import { cursorPosition } from '../readCursor.ts'

export type ServeTokenListParameters = PageParameters & {
  sort: TokenSort
  chainId?: number
  creator?: string
  search?: string
}

/**
 * A page of tokens for the list, search and creator routes: read one row past the page to know
 * whether another follows, and issue its cursor (the last row's sort key, chain id and address,
 * with the ordering's version: ranked sorts change version when a refresh reorders them).
 *
 * @example
 * return serveTokenList({ request, deps, route: 'tokens.list', filters, sort: 'newest', limit: 25 })
 * // → { data: [25 token summaries], page: { limit: 25, next_cursor: '<cursor>' | null }, meta: { generated_at, observed_block } }
 */
export async function serveTokenList({ request, deps, route, filters, sort, limit, chainId, creator, search }: ServeTokenListParameters) {
  const ranked = sort !== 'newest' && sort !== 'oldest'
  const [ranking] = ranked ? await deps.db.query<{ version: number }>('SELECT version FROM rankings WHERE sort = $1', [sort]) : []
  const version = ranking?.version ?? 0
  const after = cursorPosition({ request, version }) as [string | number, number, string] | undefined
  const rows = await listTokens({ db: deps.db, sort, limit: limit + 1, after, chainId, creator, search })
  const states = await readChainStates({ db: deps.db })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const column = tokenSortColumns[sort].column as keyof (typeof rows)[number]
  const nextCursor =
    rows.length > limit && last
      ? deps.cursors.encode({ route, filters, version, position: [last[column] as string | number, last.chain_id, last.address] })
      : null
  const observed = chainId !== undefined ? states.get(chainId)?.block : Math.min(...[...states.values()].map((s) => s.block))
  return {
    data: page.map((row) => presentTokenSummary({ row, state: states.get(row.chain_id) })),
    page: { limit, next_cursor: nextCursor },
    meta: { generated_at: new Date(deps.now()).toISOString(), ...(Number.isFinite(observed) ? { observed_block: observed } : {}) },
  }
}
