import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { Address } from 'viem'
import type { QuoteRequest as ServiceQuoteRequest } from '../../quote/quoteTypes.ts'
import { ExecuteRequest, ExecuteResponse } from '../schemas/execute.ts'
import { ErrorBody } from '../schemas/scalars.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { authenticatedErrorResponses } from './responses.ts'
import { feeRecipientFor } from './quote.ts'
import { submitPayload } from './submit.ts'

export const executeRoute = {
  method: 'POST',
  url: '/execute',
  summary: 'Quote and submit in one call: the union of both answers',
  schema: { body: ExecuteRequest, response: { 200: ExecuteResponse, ...authenticatedErrorResponses, 503: ErrorBody } },
} as const

/**
 * `POST /execute` = `/quote` (with `taker` = `user`) then `/submit` of that quote. The quote is
 * cached as /quote caches it, so the same quoteId can be submitted again until it expires.
 *
 * @example
 * registerExecuteRoute(fastify, deps)
 */
export function registerExecuteRoute(fastify: FastifyInstance, deps: SwapApiDependencies): void {
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/execute', { schema: executeRoute.schema }, async (request) => {
    const body: Static<typeof ExecuteRequest> = request.body
    const feeRecipient = feeRecipientFor(body, request.apiKeyId, deps)
    const { user, useNativeIn, unwrapNativeOut, permit, ...trade } = body
    const quoteRequest: ServiceQuoteRequest = { ...(trade as Omit<ServiceQuoteRequest, 'taker'>), taker: user as Address }
    const routePlan = await deps.quoteService.quote(quoteRequest)
    const { quoteId, expiresAt } = await deps.quoteIssuer.issue(routePlan, request.apiKeyId, feeRecipient)
    const stored = { quoteId, apiKeyId: request.apiKeyId, routePlan, expiresAt, feeRecipient }
    const payload = submitPayload(stored, { user, useNativeIn, unwrapNativeOut, permit }, deps)
    return { ...payload, routePlan, expiresAt }
  })
}
