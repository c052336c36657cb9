import { getAddress } from 'viem'
import { cursorPosition } from '../routes/readCursor.ts'
import { readTokenRow } from './readTokenRow.ts'
import type { TokenPageParameters } from './PageParameters.ts'

/**
 * A page of a token's announcements, newest first (issue time, then id, descending),
 * keyset-paged. Every stored announcement's EIP-712 signature was checked against its author
 * when it was stored; `author_is_creator` says whether that author is the token's creator.
 *
 * @example
 * return serveAnnouncements({ request, deps, route: 'tokens.announcements', filters, chainId, token, limit: 25 })
 * // → { data: [{ id, chain_id, token, author, title, body, author_is_creator, … }, newest first], page, meta }
 */
export async function serveAnnouncements({ request, deps, route, filters, chainId, token, limit }: TokenPageParameters) {
  const row = await readTokenRow({ db: deps.db, chainId, token })
  const after = cursorPosition({ request, version: 0 }) as [number, string] | undefined
  const rows = await deps.db.query<{
    id: string
    author: string
    title: string
    body: string
    issued_at: number
    signature: string
    created_at: string
  }>(
    `SELECT id, author, title, body, issued_at, signature, created_at FROM announcements
      WHERE chain_id = $1 AND token = $2 ${after ? 'AND (issued_at < $4 OR (issued_at = $4 AND id < $5))' : ''}
      ORDER BY issued_at DESC, id DESC LIMIT $3`,
    after ? [chainId, token, limit + 1, after[0], after[1]] : [chainId, token, limit + 1],
  )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map((a) => ({
      id: a.id,
      chain_id: chainId,
      token: getAddress(token),
      author: getAddress(a.author),
      author_is_creator: a.author.toLowerCase() === row.creator,
      title: a.title,
      body: a.body,
      issued_at: new Date(Number(a.issued_at) * 1000).toISOString(),
      signature: { scheme: 'eip712' as const, value: a.signature.toLowerCase() },
      updated_at: a.created_at,
    })),
    page: {
      limit,
      next_cursor:
        rows.length > limit && last
          ? deps.cursors.encode({ route, filters, version: 0, position: [Number(last.issued_at), last.id] })
          : null,
    },
    meta: { generated_at: new Date(deps.now()).toISOString() },
  }
}
