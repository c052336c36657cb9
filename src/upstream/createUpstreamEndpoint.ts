import type { Address } from 'viem'
import { createCircuitBreaker, type CircuitBreaker } from '../resilience/createCircuitBreaker.ts'
import { createTokenBucket, type TokenBucket } from './createTokenBucket.ts'
import { createUpstreamHttpClient, type UpstreamHttpClient } from './http/createUpstreamHttpClient.ts'
import { upstreamRegistry } from './registry.ts'
import { integratorFeeRefusal } from './integratorFeeRefusal.ts'
import type { IntegratorFee, UpstreamAnswer, UpstreamId, UpstreamSettings, UpstreamTrade } from './UpstreamAdapter.ts'
import { FAILURE_KINDS, UpstreamError } from './UpstreamError.ts'

export type UpstreamEndpoint = {
  id: UpstreamId
  /** How it is named in answers: its id, or `simulated:<id>` for a demo stand-in. */
  sourceId: string
  bucket: TokenBucket
  breaker: CircuitBreaker
  /** HTTP calls an executable quote takes here. */
  executableCalls: number
  /** Why this upstream cannot be asked with the caller's integrator fee (above its cap, …); undefined when it can. */
  feeRefusal: (fee: IntegratorFee | undefined) => string | undefined
  /**
   * One quote from this upstream, before `deadline` (ms, on the endpoint's clock): not made when
   * its breaker is open or its bucket is empty; every HTTP call takes a token; the outcome feeds the
   * breaker (a "no route" answer is a healthy one); not made (`unsupported`) when the API cannot
   * charge the trade's integrator fee. Throws `UpstreamError` only.
   */
  quote: (kind: 'price' | 'executable', trade: UpstreamTrade, deadline: number) => Promise<UpstreamAnswer>
  close: () => Promise<void>
}

export type CreateUpstreamEndpointParameters = {
  id: UpstreamId
  settings: UpstreamSettings
  sourceId?: string
  /** Called with an adapter bug (a thrown non-UpstreamError), which is answered as `invalid response`. */
  onBug?: (error: unknown) => void
  now?: () => number
}

/**
 * One configured upstream: its adapter, its pooled undici client (auth headers from the settings),
 * its token bucket (the published tier) and its circuit breaker, behind one `quote` call.
 *
 * @example
 * const endpoint = createUpstreamEndpoint({ id: '0x', settings })
 * const answer = await endpoint.quote('price', trade, Date.now() + 800)
 * // → { outputAmount, gasUnits }; UpstreamError('rate limited' | 'no route' | …) when 0x says no
 */
export function createUpstreamEndpoint({
  id,
  settings,
  sourceId = id,
  onBug,
  now = Date.now,
}: CreateUpstreamEndpointParameters): UpstreamEndpoint {
  const { adapter } = upstreamRegistry[id]
  const bucket = createTokenBucket({ ratePerSec: settings.ratePerSec, capacity: settings.burst, now })
  const breaker = createCircuitBreaker({ failureThreshold: 5, cooldownMs: 30_000, maxCooldownMs: 60_000, now })
  const client: UpstreamHttpClient = createUpstreamHttpClient({
    baseUrl: settings.baseUrl,
    headers: adapter.headers(settings),
    mayRetry: () => bucket.tryTake(),
    now,
  })
  return {
    id,
    sourceId,
    bucket,
    breaker,
    executableCalls: adapter.executableCalls,
    feeRefusal: (fee) => integratorFeeRefusal({ terms: adapter.fee, fee, settings }),
    quote: async (kind, trade, deadline) => {
      const refused = integratorFeeRefusal({ terms: adapter.fee, fee: trade.fee, settings })
      if (refused) throw new UpstreamError('unsupported', refused)
      if (!breaker.allow())
        throw new UpstreamError(
          'circuit open',
          `not called: its circuit breaker is open after repeated failures (next try in ${Math.ceil(breaker.retryInMs() / 1000)} s)`,
        )
      let called = false
      const request = (r: Parameters<Parameters<typeof adapter.price>[1]>[0]) => {
        if (!bucket.tryTake()) {
          throw new UpstreamError(
            'throttled',
            `not called: our rate limit for its tier (${settings.ratePerSec} requests/s, burst ${settings.burst}) is used up`,
          )
        }
        called = true
        return client.request({ ...r, deadline })
      }
      try {
        const answer =
          kind === 'price'
            ? await adapter.price(trade, request, settings)
            : await adapter.executable(trade as UpstreamTrade & { taker: Address }, request, settings)
        breaker.succeeded()
        return answer
      } catch (caught) {
        let error = caught
        if (!(error instanceof UpstreamError)) {
          onBug?.(error)
          error = new UpstreamError('invalid response', 'an answer this adapter could not read', { cause: error })
        }
        let e = error as UpstreamError
        // An upstream that echoes our key in its error text must not put it in our answer.
        if (settings.apiKey && settings.apiKey.length >= 4 && e.message.includes(settings.apiKey)) {
          e = new UpstreamError(e.kind, e.message.replaceAll(settings.apiKey, '[redacted]'), {
            retryAfterMs: e.retryAfterMs,
            cause: e.cause,
          })
        }
        if (!called) breaker.cancel()
        else if (FAILURE_KINDS.has(e.kind)) breaker.failed(e.retryAfterMs)
        else breaker.succeeded()
        throw e
      }
    },
    close: () => client.close(),
  }
}
