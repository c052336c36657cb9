import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { canonicalJson } from '../../http/quotes/canonicalJson.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'

/** Where a page ends: the values of the ordering's columns at its last row. */
export type CursorPosition = (string | number)[]

export type CursorCodec = {
  /** A cursor for the page after `position`, tied to the route, the filter set and the ordering's version. */
  encode: (args: { route: string; filters: Record<string, unknown>; version: number; position: CursorPosition }) => string
  /**
   * Reads a cursor back: `invalid_parameter` when it is not one of ours (malformed, altered),
   * `cursor_filter_mismatch` when it was issued for another route or filter set. The caller
   * compares `version` with the ordering's current one (`cursor_stale`).
   */
  decode: (cursor: string, args: { route: string; filters: Record<string, unknown> }) => { version: number; position: CursorPosition }
}

/** Longest cursor accepted (the longest we issue is far shorter). */
export const MAX_CURSOR_LENGTH = 512

/**
 * Opaque, HMAC-signed cursors (spec §2, §3): base64url JSON of the route, a digest of the filter
 * set, the ordering's version and the position, then a 128-bit HMAC-SHA256 tag. The page size is
 * not part of the filter set: a client may change `limit` between pages.
 *
 * @example
 * const cursors = createCursorCodec({ secret: randomBytes(32) })
 * const next = cursors.encode({ route: 'tokens.list', filters: { sort: 'newest' }, version: 0, position: [1700000000, 8453, '0xabc'] })
 * // → '<base64url payload>.<base64url 16-byte tag>'; decode() with other filters → GatewayProblem 'invalid_parameter'
 */
export function createCursorCodec({ secret }: { secret: Buffer }): CursorCodec {
  const tag = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16)
  const digest = (filters: Record<string, unknown>) => createHash('sha256').update(canonicalJson(filters)).digest('base64url').slice(0, 16)
  const invalid = (reason: string) =>
    new GatewayProblem('invalid_parameter', { detail: `cursor: ${reason}`, invalidParameters: [{ name: 'cursor', in: 'query', reason }] })
  return {
    encode: ({ route, filters, version, position }) => {
      const payload = Buffer.from(JSON.stringify({ r: route, f: digest(filters), v: version, p: position })).toString('base64url')
      return `${payload}.${tag(payload).toString('base64url')}`
    },
    decode: (cursor, { route, filters }) => {
      const [payload, signature, extra] = cursor.split('.')
      if (!payload || !signature || extra !== undefined || cursor.length > MAX_CURSOR_LENGTH)
        throw invalid('not a cursor this gateway issued')
      const given = Buffer.from(signature, 'base64url')
      const expected = tag(payload)
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw invalid('not a cursor this gateway issued (or it was altered)')
      let decoded: { r?: unknown; f?: unknown; v?: unknown; p?: unknown }
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
      } catch {
        throw invalid('not a cursor this gateway issued')
      }
      if (decoded.r !== route || decoded.f !== digest(filters)) {
        throw new GatewayProblem('cursor_filter_mismatch', {
          detail: 'The cursor was issued for another route or another set of filters.',
          invalidParameters: [{ name: 'cursor', in: 'query', reason: 'issued for another route or filter set' }],
        })
      }
      if (typeof decoded.v !== 'number' || !Array.isArray(decoded.p)) throw invalid('not a cursor this gateway issued')
      return { version: decoded.v, position: decoded.p as CursorPosition }
    },
  }
}
