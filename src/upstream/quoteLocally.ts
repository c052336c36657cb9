import { isTransportError } from '../market/isTransportError.ts'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError } from '../quote/errors.ts'
import type { QuoteRequest, QuoteRoutePlan } from '../quote/quoteTypes.ts'
import type { LocalSource } from './UpstreamContext.ts'

export type LocalOutcome = { plan: QuoteRoutePlan; error?: undefined } | { plan?: undefined; error: string }

/**
 * Our own quote for `request`, as a source beside the upstreams: the plan, or why there is none
 * (`no route: …` as /quote words it, a stale market, an unreachable chain, no answer before the
 * deadline, or `internal error`, which is also logged). A request the quote service refuses as
 * invalid (it would be /quote's 400) is thrown: the whole request is refused.
 *
 * @example
 * const { plan, error } = await quoteLocally({ local, request, deadline, now: Date.now })
 * // → { plan } or { error: 'no local quote within the time budget' | 'no route: …' | … }; a 400-class refusal throws
 */
export async function quoteLocally({
  local,
  request,
  deadline,
  now,
  onBug,
}: {
  local: LocalSource
  request: QuoteRequest
  deadline: number
  now: () => number
  onBug?: (error: unknown) => void
}): Promise<LocalOutcome> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - now()))
  })
  try {
    const settled = await Promise.race([local.quote(request), late])
    if (settled === 'late') return { error: 'no local quote within the time budget' }
    return { plan: settled }
  } catch (error) {
    if (error instanceof InvalidQuoteRequestError) throw error
    if (error instanceof NoRouteError) return { error: `no route: ${error.message}` }
    if (error instanceof QuoteMarketStaleError)
      return { error: 'market data is stale: local quotes are refused until the chain is reachable again' }
    if (isTransportError(error)) return { error: 'chain unreachable: local quotes are refused until it answers again' }
    onBug?.(error)
    return { error: 'internal error' }
  } finally {
    clearTimeout(timer)
  }
}
