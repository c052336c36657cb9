import { Type } from 'typebox'

/**
 * An `{error}` answer, described as it means on one route (the document's response description).
 *
 * @example
 * fastify.post('/submit', { schema: { response: { 404: errorResponse('Unknown or expired quoteId') } } }, handler)
 * // errorResponse(…) → { $ref: 'Error', description: 'Unknown or expired quoteId' }
 */
export function errorResponse(description: string) {
  return { ...Type.Ref('Error'), description }
}

/**
 * The error answers every authenticated route can send (validation, auth, body, limit, internal);
 * `badRequest` says what a 400 means on the route, including the refusals that depend on state
 * the schema cannot see (the market, a stored quote).
 *
 * @example
 * const response = { 200: Type.Ref('QuoteResponse'), ...authenticatedErrorResponses({ badRequest: NO_ROUTE_400 }) }
 * // → { 200, 400 (described as NO_ROUTE_400), 401, 413, 415, 429 (with retry-after), 500, 503 }
 */
export function authenticatedErrorResponses({ badRequest }: { badRequest: string }) {
  return {
    400: errorResponse(badRequest),
    401: errorResponse('Missing or incorrect x-api-key: `{"error":"unauthorized"}`'),
    413: errorResponse('Body over 32 KiB'),
    415: errorResponse('Body is not application/json'),
    429: {
      ...Type.Ref('RateLimitError'),
      description: 'Sliding-window rate limit exceeded (per API key, per 60 s)',
      headers: {
        'retry-after': {
          type: 'integer',
          minimum: 1,
          description: 'whole seconds until the oldest counted hit leaves the window (at least 1)',
        },
      },
    },
    500: errorResponse('Internal error: `{"error":"internal error"}` (the cause is logged, never sent)'),
    503: errorResponse(SHARED_STATE_503),
  }
}

/** 503 on any authenticated route: the shared state (Redis) that counts the limit and keeps quotes does not answer. */
export const SHARED_STATE_503 =
  'The shared state (Redis, with REDIS_URL) does not answer: `{"error":"shared state unavailable: …"}`; no call is served without its rate limit'

/** What a 400 means for a body the schema accepts: only the market can still say no. */
export const NO_ROUTE_400 =
  'A request the schema refuses (`{error}` names the first failing field: `amountIn: …`), ' +
  'or a schema-valid request the market cannot fill: `{"error":"no route: …"}` (nothing connects the tokens, the same token on both sides, or the amount buys nothing after the fee).'

/** The OpenAPI link from a 200 that carries a quoteId to /submit (clients and stateful fuzzers follow it). */
export const quoteIdLink = {
  submit: {
    operationId: 'submit',
    requestBody: { quoteId: '$response.body#/quoteId' },
    description: 'Submit this quote: its quoteId goes into the /submit body',
  },
}
