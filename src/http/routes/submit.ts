import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import { buildSwapTransaction } from '../buildSwapTransaction.ts'
import { QuoteNotFoundError } from '../errors.ts'
import type { StoredQuote } from '../quotes/createQuoteStore.ts'
import type { SubmitRequest } from '../schemas/submit.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'
import { authenticatedErrorResponses, errorResponse } from './responses.ts'

/** How /submit and /execute name the router encoder's fields (errors.ts maps them for a 400). */
export const submitRouterFields = { recipient: 'user', permit: 'permit' }

/** The SubmitResponse of `quote` for the submit fields of `body` (shared with /execute). */
export function submitPayload(
  quote: StoredQuote,
  body: Pick<SubmitRequest, 'user' | 'useNativeIn' | 'unwrapNativeOut' | 'permit'>,
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
    user: body.user,
    useNativeIn: body.useNativeIn,
    unwrapNativeOut: body.unwrapNativeOut,
    permit: body.permit,
    // The recipient the quote was priced for (its key's), never the service default at submit time.
    feeRecipient: quote.feeRecipient,
    deadlineSec: nowSec + BigInt(deps.txDeadlineSec),
  })
  return { quoteId: quote.quoteId, chainId: quote.routePlan.chainId, to, data, value: value.toString() }
}

/**
 * `POST /submit`: the transaction payload of a quote this API key made and that has not expired
 * (404 otherwise). A quote can be submitted any number of times until `expiresAt`. The gas-price
 * fields are validated by the schema (a legacy price or EIP-1559 fees, not both) and not used:
 * the service does not broadcast and the payload has no gas fields.
 *
 * @example
 * registerSubmitRoute(fastify, deps)
 * // POST /submit now answers { to, data, value } for a cached quoteId, 404 for an unknown one
 */
export function registerSubmitRoute(fastify: FastifyInstance, deps: SwapApiDependencies): void {
  fastify.post(
    '/submit',
    {
      schema: {
        summary: 'Build the router call for a cached quote (repeatable until the quote expires)',
        operationId: 'submit',
        body: Type.Ref('SubmitRequest'),
        response: {
          200: { ...Type.Ref('SubmitResponse'), description: 'The transaction to sign and broadcast' },
          ...authenticatedErrorResponses({
            badRequest:
              'A request the schema refuses (`{error}` names the first failing field), or a flag the stored quote cannot honour: ' +
              '`useNativeIn: …` (true on a quote that does not start at WETH), `unwrapNativeOut: …` (true on a quote that does not end at WETH), ' +
              '`permit: …` (a permit on a native-in swap).',
          }),
          404: errorResponse('Unknown or expired quoteId, or a quote made with another API key'),
        },
      },
      config: { routerFields: submitRouterFields },
    },
    async (request) => {
      const body = request.body as SubmitRequest
      const quote = await deps.quoteStore.get(body.quoteId, request.apiKeyId)
      if (!quote) throw new QuoteNotFoundError()
      return submitPayload(quote, body, deps)
    },
  )
}
