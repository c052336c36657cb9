import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import type { CursorPosition } from '../http/createCursorCodec.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'

/**
 * Decodes the request's `cursor` for `route` and `filters` (before the limiter: a malformed
 * cursor or one from another route or filter set is refused for free) and keeps it for the
 * handler.
 *
 * @example
 * validate: (request, deps) => readCursor({ request, deps, route: 'tokens.list', filters })
 * // request.gw.locals.cursor now holds the decoded cursor; one from another route or filter set → 'invalid_parameter'
 */
export function readCursor({
  request,
  deps,
  route,
  filters,
}: {
  request: FastifyRequest
  deps: GatewayDependencies
  route: string
  filters: Record<string, unknown>
}): void {
  const cursor = (request.query as { cursor?: string }).cursor
  if (cursor !== undefined) request.gw.locals.cursor = deps.cursors.decode(cursor, { route, filters })
}

/**
 * The decoded cursor, checked against the ordering's current version: an ordering that changed
 * since the cursor was issued makes it `cursor_stale` (spec §3).
 *
 * @example
 * const after = cursorPosition({ request, version: rankingVersion })
 * // → the cursor's position ([sort key, chain id, address] on the token lists); undefined without one; 'cursor_stale' for another version
 */
export function cursorPosition({ request, version }: { request: FastifyRequest; version: number }): CursorPosition | undefined {
  const cursor = request.gw.locals.cursor as { version: number; position: CursorPosition } | undefined
  if (!cursor) return undefined
  if (cursor.version !== version)
    throw new GatewayProblem('cursor_stale', { detail: 'The order of this list changed since the cursor was issued.' })
  return cursor.position
}
