import { Type } from 'typebox'
import { MAX_PAGE_LIMIT } from '../limits/plans.ts'
import { MAX_CURSOR_LENGTH } from '../http/createCursorCodec.ts'

/** `limit` and `cursor`, the paging parameters of every list. */
export const pageQuery = {
  limit: Type.Integer({
    minimum: 1,
    maximum: MAX_PAGE_LIMIT,
    description: `rows per page (at most the plan's largest page: 50, 100 or 200; a larger page costs more units)`,
  }),
  cursor: Type.String({
    minLength: 1,
    maxLength: MAX_CURSOR_LENGTH,
    description: 'next_cursor of the previous page (tied to this route, its filters and the ordering it was issued for)',
  }),
}

/** `{chain}`: a chain id in decimal (supported ones: see /config). */
export const chainParam = Type.String({ pattern: '^[0-9]{1,10}$', description: 'a chain id in decimal, e.g. 8453' })

/** An address path or query parameter. */
export const addressParam = Type.String({ pattern: '^0x[a-fA-F0-9]{40}$', description: 'a 20-byte hex address' })

const rateLimitDoc = {
  'x-request-id': { schema: { type: 'string' }, description: 'the request id (also the problem’s request_id)' },
  ratelimit: { schema: { type: 'string' }, description: 'where each plan policy stands (structured field: r remaining units, t seconds)' },
  'ratelimit-policy': { schema: { type: 'string' }, description: 'the plan policies (structured field: q units per w seconds)' },
  'x-ratelimit-limit': { schema: { type: 'string' } },
  'x-ratelimit-remaining': { schema: { type: 'string' } },
  'x-ratelimit-reset': { schema: { type: 'string' }, description: 'seconds until the tightest policy frees up' },
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: unknown, duplicate, incompatible or invalid parameters',
  401: 'Missing or invalid API key',
  403: 'Scope or browser origin not allowed',
  404: 'No such resource',
  409: 'Cursor stale or issued for another route or filters',
  413: 'Request body too large',
  422: 'Unsupported chain',
  429: 'Rate limit or quota exceeded (see Retry-After)',
  500: 'Internal error',
  502: 'A required dependency returned an invalid response',
  503: 'A required dependency is unavailable',
  504: 'A required dependency timed out',
}

/**
 * A route's responses for its schema (and so for the OpenAPI document): the success body as
 * `application/json`, every problem the route can answer as `application/problem+json`, each
 * with the headers it carries.
 *
 * @example
 * schema: { response: gatewayResponses({ ok: Type.Ref('TokenDetailResponse'), description: 'The token', problems: [400, 401, 403, 404, 422, 429, 500] }) }
 * // → { 200: { description: 'The token', headers, content: { 'application/json': … } }, 400: { … 'application/problem+json' … }, … }
 */
export function gatewayResponses({
  ok,
  description,
  problems,
  okStatus = 200,
}: {
  ok: unknown
  description: string
  problems: readonly number[]
  okStatus?: number
}) {
  return {
    [okStatus]: { description, headers: rateLimitDoc, content: { 'application/json': { schema: ok } } },
    ...Object.fromEntries(
      problems.map((status) => [
        status,
        {
          description: STATUS_TEXT[status],
          headers:
            status === 429
              ? { ...rateLimitDoc, 'retry-after': { schema: { type: 'string' }, description: 'seconds to wait' } }
              : rateLimitDoc,
          content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
        },
      ]),
    ),
  }
}

/** The problems any keyed read route can answer. */
export const KEYED_PROBLEMS = [400, 401, 403, 429, 500] as const
