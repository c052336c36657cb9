import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { QuoteRequest as ServiceQuoteRequest } from '../../quote/quoteTypes.ts'
import { BadRequestError } from '../errors.ts'
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

/** The refusals the service layer adds to the schema: a fee needs somewhere to go. */
export function checkFeeRecipient(body: { feeBps?: number }, deps: Pick<SwapApiDependencies, 'feeRecipient'>): void {
  if ((body.feeBps ?? 0) > 0 && !deps.feeRecipient) {
    throw new BadRequestError({ field: 'feeBps', message: 'this server has no fee recipient configured (FEE_RECIPIENT): only 0 is accepted' })
  }
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
    checkFeeRecipient(body, deps)
    const routePlan = await deps.quoteService.quote(body as ServiceQuoteRequest)
    const { quoteId, expiresAt } = await deps.quoteIssuer.issue(routePlan, request.apiKeyId)
    return { quoteId, routePlan, expiresAt }
  })
}
