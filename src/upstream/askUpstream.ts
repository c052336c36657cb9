import type { UpstreamEndpoint } from './createUpstreamEndpoint.ts'
import type { UpstreamAnswer, UpstreamTrade } from './UpstreamAdapter.ts'
import type { UpstreamContext } from './UpstreamContext.ts'
import { UpstreamError } from './UpstreamError.ts'

export type AskUpstreamParameters = {
  ctx: UpstreamContext
  endpoint: UpstreamEndpoint
  trade: UpstreamTrade
  deadline: number
  /** Ask for a transaction (the trade has a taker); an API that cannot express the request's slippage falls back to a price. */
  executable: boolean
  /** Wait for a token of the upstream's bucket when it comes within half the remaining budget (default false: the caller planned its calls). */
  waitForToken?: boolean
}

/**
 * One quote from one upstream within the request's deadline: waits for its rate limit when asked
 * and worthwhile, asks for a transaction when there is a taker (and for a price when the API cannot
 * express the request's slippage), and logs the call for the operator. Throws `UpstreamError`.
 *
 * @example
 * const answer = await askUpstream({ ctx, endpoint, trade: prepared.trade(amountIn), deadline: prepared.deadline, executable: false })
 * // → { outputAmount, gasUnits } (with transaction when executable and a taker); UpstreamError otherwise
 */
export async function askUpstream({
  ctx,
  endpoint,
  trade,
  deadline,
  executable,
  waitForToken = false,
}: AskUpstreamParameters): Promise<UpstreamAnswer> {
  const started = ctx.now()
  let kind: 'price' | 'executable' = executable && trade.taker ? 'executable' : 'price'
  try {
    const needed = kind === 'executable' ? endpoint.executableCalls : 1
    const wait = endpoint.bucket.msUntil(needed)
    if (waitForToken && wait > 0 && wait <= (deadline - ctx.now()) / 2) await new Promise((resolve) => setTimeout(resolve, wait))
    try {
      const answer = await endpoint.quote(kind, trade, deadline)
      ctx.log({ sourceId: endpoint.sourceId, kind, amountIn: trade.amountIn.toString(), ms: ctx.now() - started, outcome: 'ok' })
      return answer
    } catch (error) {
      if (!(error instanceof UpstreamError) || error.kind !== 'unsupported' || kind !== 'executable') throw error
      kind = 'price'
      return await endpoint.quote('price', trade, deadline)
    }
  } catch (error) {
    ctx.log({
      sourceId: endpoint.sourceId,
      kind,
      amountIn: trade.amountIn.toString(),
      ms: ctx.now() - started,
      outcome: error instanceof UpstreamError ? error.kind : 'internal error',
    })
    throw error
  }
}
