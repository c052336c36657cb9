import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { Address, Hex } from 'viem'
import { buildSwapTransaction } from '../buildSwapTransaction.ts'
import { BadRequestError, QuoteNotFoundError } from '../errors.ts'
import { ErrorBody } from '../schemas/scalars.ts'
import { SubmitRequest, SubmitResponse } from '../schemas/submit.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import type { StoredQuote } from '../quotes/createQuoteStore.ts'
import { authenticatedErrorResponses } from './responses.ts'

export const submitRoute = {
  method: 'POST',
  url: '/submit',
  summary: 'Build the router call for a cached quote (repeatable until the quote expires)',
  schema: { body: SubmitRequest, response: { 200: SubmitResponse, ...authenticatedErrorResponses, 404: ErrorBody } },
} as const

/**
 * The gas-price fields are validated, never used: the service does not broadcast and the payload
 * has no gas fields. Refused: a legacy `gasPriceWei` mixed with EIP-1559 fields, and a priority
 * fee above the max fee.
 */
export function checkGasPriceFields(body: { gasPriceWei?: string; maxFeePerGasWei?: string; maxPriorityFeePerGasWei?: string }): void {
  if (body.gasPriceWei !== undefined && (body.maxFeePerGasWei !== undefined || body.maxPriorityFeePerGasWei !== undefined)) {
    throw new BadRequestError({ field: 'gasPriceWei', message: 'a legacy gas price cannot be combined with maxFeePerGasWei / maxPriorityFeePerGasWei' })
  }
  if (body.maxFeePerGasWei !== undefined && body.maxPriorityFeePerGasWei !== undefined && BigInt(body.maxPriorityFeePerGasWei) > BigInt(body.maxFeePerGasWei)) {
    throw new BadRequestError({ field: 'maxPriorityFeePerGasWei', message: 'must not exceed maxFeePerGasWei' })
  }
}

/** The SubmitResponse of `quote` for the submit fields of `body` (shared with /execute). */
export function submitPayload(
  quote: StoredQuote,
  body: { user: string; useNativeIn?: boolean; unwrapNativeOut?: boolean; permit?: { value: string; deadline: number; v: number; r: string; s: string } },
  deps: SwapApiDependencies,
) {
  // The router compares the deadline with block.timestamp: count from the chain's clock when it is ahead.
  const wallSec = BigInt(Math.floor((deps.now ?? Date.now)() / 1000))
  const chainSec = deps.chainTimeSec?.() ?? 0n
  const nowSec = chainSec > wallSec ? chainSec : wallSec
  const { to, data, value } = buildSwapTransaction({
    plan: quote.routePlan,
    router: deps.quoteService.router,
    weth: deps.weth,
    user: body.user as Address,
    useNativeIn: body.useNativeIn,
    unwrapNativeOut: body.unwrapNativeOut,
    permit: body.permit && { ...body.permit, r: body.permit.r as Hex, s: body.permit.s as Hex },
    // The recipient the quote was priced for (its key's), never the service default at submit time.
    feeRecipient: quote.feeRecipient,
    deadlineSec: nowSec + BigInt(deps.txDeadlineSec),
  })
  return { quoteId: quote.quoteId, chainId: quote.routePlan.chainId, to, data, value: value.toString() }
}

/**
 * `POST /submit`: the transaction payload of a quote this API key made and that has not expired
 * (404 otherwise). A quote can be submitted any number of times until `expiresAt`.
 *
 * @example
 * registerSubmitRoute(fastify, deps)
 */
export function registerSubmitRoute(fastify: FastifyInstance, deps: SwapApiDependencies): void {
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/submit', { schema: submitRoute.schema }, async (request) => {
    const body: Static<typeof SubmitRequest> = request.body
    checkGasPriceFields(body)
    const quote = await deps.quoteStore.get(body.quoteId, request.apiKeyId)
    if (!quote) throw new QuoteNotFoundError()
    return submitPayload(quote, body, deps)
  })
}
