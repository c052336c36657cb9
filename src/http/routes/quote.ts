import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { QuoteRequest as ServiceQuoteRequest } from '../../quote/quoteTypes.ts'
import { resolveIntegratorFee } from '../auth/resolveIntegratorFee.ts'
import { QuoteRequest, QuoteResponse } from '../schemas/quote.ts'
import { ErrorBody } from '../schemas/scalars.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { authenticatedErrorResponses } from './responses.ts'

export const quoteRoute = {
  method: 'POST',
  url: '/quote',
  summary: 'Price a swap; the plan is cached under quoteId until expiresAt',
  schema: { body: QuoteRequest, response: { 200: QuoteResponse, ...authenticatedErrorResponses, 503: ErrorBody } },
} as const

/** The caller key's fee recipient for `feeBps`, or a 400 (above the key's cap, or nowhere to pay it). */
export function feeRecipientFor(body: { feeBps?: number }, apiKeyId: string, deps: Pick<SwapApiDependencies, 'apiKeys' | 'feeRecipient' | 'maxFeeBps'>) {
  return resolveIntegratorFee({ feeBps: body.feeBps, key: deps.apiKeys.settingsOf(apiKeyId), feeRecipient: deps.feeRecipient, maxFeeBps: deps.maxFeeBps })
}

/**
 * `POST /quote`: the quote service's plan, issued under a quoteId bound to the caller's API key.
 * No route → 400; stale market → 503 (errors.ts).
 *
 * @example
 * registerQuoteRoute(fastify, deps)
 */
export function registerQuoteRoute(fastify: FastifyInstance, deps: SwapApiDependencies): void {
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/quote', { schema: quoteRoute.schema }, async (request) => {
    const body: Static<typeof QuoteRequest> = request.body
    const feeRecipient = feeRecipientFor(body, request.apiKeyId, deps)
    const routePlan = await deps.quoteService.quote(body as ServiceQuoteRequest)
    const { quoteId, expiresAt } = await deps.quoteIssuer.issue(routePlan, request.apiKeyId, feeRecipient)
    return { quoteId, routePlan, expiresAt }
  })
}
