import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { UpstreamService } from '../../upstream/createUpstreamService.ts'
import type { QuoteRequest } from '../schemas/quote.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { upstreamLocalSource } from '../upstreamLocalSource.ts'
import { OVERLOADED_503, UPSTREAM_400 } from './compare.ts'
import { feeRecipientFor } from './quote.ts'
import { authenticatedErrorResponses, errorResponse } from './responses.ts'

/**
 * `POST /quote/split` (registered only when an upstream is configured): the best allocation of the
 * trade across the upstreams and our own solver, from each source's sampled curve, compared with
 * the single best source; never worse than it. See docs/upstreams.md.
 *
 * @example
 * registerSplitRoute(fastify, deps, deps.upstreams)
 * // POST /quote/split now answers the allocation across the sources and its gain over the best single one
 */
export function registerSplitRoute(fastify: FastifyInstance, deps: SwapApiDependencies, upstreams: UpstreamService): void {
  fastify.post(
    '/quote/split',
    {
      schema: {
        summary: 'The best split of one trade across the upstream aggregators and our solver',
        operationId: 'split',
        body: Type.Ref('QuoteRequest'),
        response: {
          200: { ...Type.Ref('SplitResponse'), description: 'The allocation, its total against the single best source, and what failed' },
          ...authenticatedErrorResponses({ badRequest: UPSTREAM_400 }),
          503: errorResponse(OVERLOADED_503),
        },
      },
    },
    async (request) => {
      const body = request.body as QuoteRequest
      const feeRecipient = feeRecipientFor(body, request.apiKeyId, deps)
      // The same recipient our quote pays: every upstream is asked to charge the caller's fee for it.
      return upstreams.split(body, upstreamLocalSource({ deps, apiKeyId: request.apiKeyId, feeRecipient }), feeRecipient)
    },
  )
}
