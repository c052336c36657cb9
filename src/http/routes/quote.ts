import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import { resolveIntegratorFee } from '../auth/resolveIntegratorFee.ts'
import type { QuoteRequest } from '../schemas/quote.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { authenticatedErrorResponses, errorResponse, NO_ROUTE_400, quoteIdLink } from './responses.ts'

/** 503: the one refusal that is about time, not the request. */
export const MARKET_STALE_503 =
  'Market data is stale (the chain does not answer, or a reorg is being followed): quotes are refused until the market is at the head again; ' +
  'or the shared state (Redis) does not answer; or the service sheds load (`{"error":"overloaded: …"}` with `Retry-After: 1`: too many solves in flight for this key or in all, or the event loop is late)'

/** The caller key's fee recipient for `feeBps`, or a 400 (above the key's cap, or nowhere to pay it). */
export function feeRecipientFor(
  body: { feeBps?: number },
  apiKeyId: string,
  deps: Pick<SwapApiDependencies, 'apiKeys' | 'feeRecipient' | 'maxFeeBps'>,
) {
  return resolveIntegratorFee({
    feeBps: body.feeBps,
    key: deps.apiKeys.settingsOf(apiKeyId),
    feeRecipient: deps.feeRecipient,
    maxFeeBps: deps.maxFeeBps,
  })
}

/**
 * `POST /quote`: the quote service's plan, issued under a quoteId bound to the caller's API key.
 * The schema (`QuoteRequest`, built for this deployment) refuses everything the service would;
 * after it, only the market can say no: no route → 400 `no route: …`, stale market → 503.
 *
 * @example
 * registerQuoteRoute(fastify, deps) // POST /quote now answers { quoteId, routePlan, expiresAt }
 */
export function registerQuoteRoute(fastify: FastifyInstance, deps: SwapApiDependencies): void {
  fastify.post(
    '/quote',
    {
      schema: {
        summary: 'Price a swap; the plan is cached under quoteId until expiresAt',
        operationId: 'quote',
        body: Type.Ref('QuoteRequest'),
        response: {
          200: { ...Type.Ref('QuoteResponse'), description: 'The route plan and its quoteId' },
          ...authenticatedErrorResponses({ badRequest: NO_ROUTE_400 }),
          503: errorResponse(MARKET_STALE_503),
        },
      },
      // The calldata gas estimate encodes `taker` as the router's recipient.
      links: { 200: quoteIdLink },
      config: { routerFields: { recipient: 'taker' } },
    },
    async (request) => {
      const body = request.body as QuoteRequest
      const feeRecipient = feeRecipientFor(body, request.apiKeyId, deps)
      const routePlan = await deps.quoteService.quote(body)
      const { quoteId, expiresAt } = await deps.quoteIssuer.issue(routePlan, request.apiKeyId, feeRecipient)
      return { quoteId, routePlan, expiresAt }
    },
  )
}
