import type { Address } from 'viem'
import type { CompareResponse, UpstreamQuote } from '../http/schemas/upstream.ts'
import type { QuoteRequest } from '../quote/quoteTypes.ts'
import { askUpstream } from './askUpstream.ts'
import type { GasCostInTokenOut } from './createGasCostPricer.ts'
import { describeUpstreamFailure } from './describeUpstreamFailure.ts'
import { prepareUpstreamRequest } from './prepareUpstreamRequest.ts'
import { quoteLocally } from './quoteLocally.ts'
import type { UpstreamAnswer } from './UpstreamAdapter.ts'
import type { LocalSource, UpstreamContext } from './UpstreamContext.ts'
import { upstreamQuoteWire } from './upstreamQuoteWire.ts'

/**
 * POST /quote/compare: our quote (issued under the caller's key, like /quote) beside every
 * configured upstream's, all asked at once with one deadline (`timeBudgetMs`, else
 * `UPSTREAM_TIME_BUDGET_MS`): what has arrived by then is answered, the rest is an error line.
 * Upstreams are ranked by `netOutput` (their output minus their gas in tokenOut, priced alike for
 * all). `upstream` is null exactly when none gave a quote, and `upstreamError` then says why.
 * With a `taker`, upstreams are asked for executable quotes (their transaction comes along). With
 * `feeBps` > 0 every upstream is asked to charge the same fee for `feeRecipient` (as our own quote
 * does), so every output is after it; one that cannot charge it is an `unsupported` line.
 *
 * @example
 * const answer = await compareUpstreams({ ctx, request, local, feeRecipient })
 * answer.upstream?.best.sourceId // '0x'
 */
export async function compareUpstreams({
  ctx,
  request,
  local,
  feeRecipient,
  onBug,
}: {
  ctx: UpstreamContext
  request: QuoteRequest
  local: LocalSource
  feeRecipient?: Address
  onBug?: (error: unknown) => void
}): Promise<CompareResponse> {
  const prepared = await prepareUpstreamRequest({ ctx, request, feeRecipient })
  const amountIn = BigInt(request.amountIn)
  const localOutcome = quoteLocally({ local, request, deadline: prepared.deadline, now: ctx.now, onBug })
  const gas: Promise<GasCostInTokenOut> = prepared.gasPriceKnown
    ? ctx.gasCost(request.tokenOut, prepared.gasPriceWei)
    : Promise.resolve({ priced: false, costOf: () => 0n })
  const asked = prepared.sameAsset
    ? []
    : ctx.endpoints.map((endpoint) =>
        askUpstream({
          ctx,
          endpoint,
          trade: prepared.trade(amountIn),
          deadline: prepared.deadline,
          executable: request.taker !== undefined,
          waitForToken: true,
        }),
      )
  const [settled, localResult, gasCost] = await Promise.all([Promise.allSettled(asked), localOutcome, gas])

  let localAnswer: CompareResponse['local'] = null
  let localError: string | null = localResult.error ?? null
  if (localResult.plan) {
    const { quoteId, expiresAt } = await local.issue(localResult.plan)
    localAnswer = { quoteId, routePlan: localResult.plan, expiresAt }
    localError = null
  }
  const quotes: UpstreamQuote[] = []
  const errors: string[] = []
  settled.forEach((outcome, i) => {
    const sourceId = ctx.endpoints[i].sourceId
    if (outcome.status === 'fulfilled') {
      const answer = outcome.value as UpstreamAnswer
      // Net of its L1 data fee too, as /quote nets ours (its calldata's when it built a transaction).
      quotes.push(upstreamQuoteWire({ sourceId, answer, gasCost, l1FeeWei: ctx.l1FeeWei(answer.transaction, prepared.gasPriceWei) }))
    } else errors.push(describeUpstreamFailure(sourceId, outcome.reason))
  })
  quotes.sort((a, b) => compareDesc(BigInt(a.netOutput), BigInt(b.netOutput)))
  const netOfGas = gasCost.priced
  if (quotes.length === 0) {
    const why = prepared.sameAsset
      ? 'tokenIn and tokenOut are the same asset: nothing to quote'
      : `no upstream gave a quote: ${errors.join('; ')}`
    return { local: localAnswer, localError, upstream: null, upstreamError: why, netOfGas }
  }
  const [best, ...alternates] = quotes
  return { local: localAnswer, localError, upstream: { best, alternates, errors }, upstreamError: null, netOfGas }
}

function compareDesc(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0
}
