import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { ExecuteRequest } from '../schemas/execute.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { feeRecipientFor, MARKET_STALE_503 } from './quote.ts'
import { authenticatedErrorResponses, errorResponse, NO_ROUTE_400, quoteIdLink } from './responses.ts'
import { submitPayload, submitRouterFields } from './submit.ts'

/**
 * `POST /execute` = `/quote` (with `taker` = `user`) then `/submit` of that quote. The quote is
 * cached as /quote caches it, so the same quoteId can be submitted again until it expires. The
 * native-flag rules that /submit checks against the stored quote are stated in the schema here
 * (the tokens are in the request).
 *
 * @example
 * registerExecuteRoute(fastify, deps) // POST /execute now answers { quoteId, routePlan, expiresAt, to, data, value }
 */
export function registerExecuteRoute(fastify: FastifyInstance, deps: SwapApiDependencies): void {
  fastify.post(
    '/execute',
    {
      schema: {
        summary: 'Quote and submit in one call: the union of both answers',
        operationId: 'execute',
        body: Type.Ref('ExecuteRequest'),
        response: {
          200: { ...Type.Ref('ExecuteResponse'), description: 'The plan, its quoteId and the transaction to sign' },
          ...authenticatedErrorResponses({ badRequest: NO_ROUTE_400 }),
          503: errorResponse(MARKET_STALE_503),
        },
      },
      links: { 200: quoteIdLink },
      config: { routerFields: submitRouterFields },
    },
    async (request) => {
      const body = request.body as ExecuteRequest
      const feeRecipient = feeRecipientFor(body, request.apiKeyId, deps)
      const { user, useNativeIn, unwrapNativeOut, permit, ...trade } = body
      const routePlan = await deps.quoteService.quote({ ...trade, taker: user })
      const { quoteId, expiresAt } = await deps.quoteIssuer.issue(routePlan, request.apiKeyId, feeRecipient)
      const stored = { quoteId, apiKeyId: request.apiKeyId, routePlan, expiresAt, feeRecipient }
      const payload = submitPayload(stored, { user, useNativeIn, unwrapNativeOut, permit }, deps)
      return { ...payload, routePlan, expiresAt }
    },
  )
}
