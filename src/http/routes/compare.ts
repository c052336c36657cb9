import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { UpstreamService } from '../../upstream/createUpstreamService.ts'
import type { QuoteRequest } from '../schemas/quote.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { upstreamLocalSource } from '../upstreamLocalSource.ts'
import { feeRecipientFor } from './quote.ts'
import { authenticatedErrorResponses, errorResponse } from './responses.ts'

/** What a 400 means on /quote/compare and /quote/split: the request only (a market without a route is an answer, not a 400). */
export const UPSTREAM_400 =
  "A request the schema refuses (`{error}` names the first failing field), or a `feeBps` above the API key's own cap. " +
  'No route on our market is not a 400 here: `local` is null and `localError` says why.'

/** 503 on /quote/compare and /quote/split: they run our solver too, under the same admission control as /quote. */
export const OVERLOADED_503 =
  'The service sheds load (`{"error":"overloaded: …"}` with `Retry-After: 1`): too many solves in flight for this key or in all, or the event loop is late; ' +
  'or the shared state (Redis) does not answer'

/**
 * `POST /quote/compare` (registered only when an upstream is configured): our quote, issued under
 * the caller's key like a /quote answer, beside every configured upstream's, asked at once within
 * the request's budget. See docs/upstreams.md for what each field means and when `upstream` is null.
 *
 * @example
 * registerCompareRoute(fastify, deps, deps.upstreams)
 * // POST /quote/compare now answers our quote beside the best upstream's and the alternates
 */
export function registerCompareRoute(fastify: FastifyInstance, deps: SwapApiDependencies, upstreams: UpstreamService): void {
  fastify.post(
    '/quote/compare',
    {
      schema: {
        summary: "Our quote beside the upstream aggregators' quotes, net of gas",
        operationId: 'compare',
        body: Type.Ref('QuoteRequest'),
        response: {
          200: {
            ...Type.Ref('CompareResponse'),
            description: 'Our quote (or null and why), the best upstream quote, the alternates, and why each other upstream gave none',
          },
          ...authenticatedErrorResponses({ badRequest: UPSTREAM_400 }),
          503: errorResponse(OVERLOADED_503),
        },
      },
    },
    async (request) => {
      const body = request.body as QuoteRequest
      const feeRecipient = feeRecipientFor(body, request.apiKeyId, deps)
      // The same recipient our quote pays: every upstream is asked to charge the caller's fee for it.
      return upstreams.compare(body, upstreamLocalSource({ deps, apiKeyId: request.apiKeyId, feeRecipient }), feeRecipient)
    },
  )
}
