import type { QuoteRequest, QuoteRoutePlan } from '../quote/quoteTypes.ts'
import { askUpstream } from './askUpstream.ts'
import type { UpstreamEndpoint } from './createUpstreamEndpoint.ts'
import { describeUpstreamFailure } from './describeUpstreamFailure.ts'
import type { PreparedUpstreamRequest } from './prepareUpstreamRequest.ts'
import { planL1FeeWei } from './planL1FeeWei.ts'
import { quoteLocally } from './quoteLocally.ts'
import { sampleAmounts } from './split/sampleAmounts.ts'
import type { LocalSource, UpstreamContext } from './UpstreamContext.ts'

/** One answered size of one source; `l1FeeWei`: its transaction's L1 data fee (netted with its gas). */
export type Sample = { x: bigint; output: bigint; gasUnits: bigint; l1FeeWei: bigint; plan?: QuoteRoutePlan }

/** A source's sampled curve: what it answered, how many sizes were asked, what failed. */
export type SourceSamples = { sourceId: string; endpoint?: UpstreamEndpoint; samples: Sample[]; asked: number; errors: string[] }

export type SampleSourcesParameters = {
  ctx: UpstreamContext
  request: QuoteRequest
  local: LocalSource
  prepared: PreparedUpstreamRequest
  /** Upstream samples end here (the phase that builds transactions may need the rest). */
  deadline: number
  /** Sizes asked of our own solver (cheap: a few ms each). */
  localSamples: number
  /** At most this many sizes per upstream. */
  maxUpstreamSamples: number
  /** Tokens to keep in each upstream's bucket for the exact call after the allocation. */
  reserveCalls: (endpoint: UpstreamEndpoint) => number
  onBug?: (error: unknown) => void
}

/**
 * Phase one of /quote/split: every source's output at several sizes, all asked at once. The
 * number of sizes per upstream is what its token bucket holds now, less what the exact call after
 * the allocation needs, at most `maxUpstreamSamples` (1inch's 1 request/s free tier gets one size,
 * the whole amount; 0x's 5 gets four or five); a source whose breaker is open or whose bucket is
 * empty, or which cannot charge the caller's integrator fee, is left out with an error line. Sizes are even fractions of the amount, the whole
 * amount always among them (sampleAmounts).
 *
 * @example
 * const sources = await sampleSources({ ctx, request, local, prepared, deadline, localSamples: 8, maxUpstreamSamples: 6, reserveCalls: () => 0 })
 * // → { sources: [{ sourceId, samples: [{ x, output, gasUnits, l1FeeWei }, …], asked, errors }, …], errors: ['0x: circuit open: …'] }
 */
export async function sampleSources({
  ctx,
  request,
  local,
  prepared,
  deadline,
  localSamples,
  maxUpstreamSamples,
  reserveCalls,
  onBug,
}: SampleSourcesParameters): Promise<{ sources: SourceSamples[]; errors: string[] }> {
  const totalIn = BigInt(request.amountIn)
  const errors: string[] = []
  const jobs: Promise<SourceSamples>[] = []

  jobs.push(
    (async () => {
      const sizes = sampleAmounts(totalIn, localSamples)
      const outcomes = await Promise.all(
        sizes.map((x) =>
          quoteLocally({ local, request: { ...request, amountIn: x.toString() }, deadline: prepared.deadline, now: ctx.now, onBug }),
        ),
      )
      const samples: Sample[] = []
      const failures = new Set<string>()
      outcomes.forEach((o, i) => {
        if (o.plan)
          samples.push({
            x: sizes[i],
            output: BigInt(o.plan.expectedAmountOut),
            gasUnits: BigInt(o.plan.gasEstimate.gasUnits),
            l1FeeWei: planL1FeeWei(o.plan, prepared.gasPriceWei),
            plan: o.plan,
          })
        else failures.add(o.error)
      })
      return { sourceId: 'local', samples, asked: sizes.length, errors: [...failures].map((f) => `local: ${f}`) }
    })(),
  )

  if (!prepared.sameAsset) {
    for (const endpoint of ctx.endpoints) {
      const refused = endpoint.feeRefusal(prepared.fee)
      if (refused) {
        errors.push(`${endpoint.sourceId}: unsupported: ${refused}`)
        continue
      }
      if (endpoint.breaker.state() === 'open') {
        errors.push(`${endpoint.sourceId}: circuit open: not called: its circuit breaker is open after repeated failures`)
        continue
      }
      const available = endpoint.bucket.available()
      const count = Math.min(maxUpstreamSamples, Math.max(Math.min(available, 1), available - reserveCalls(endpoint)))
      if (count < 1) {
        errors.push(
          `${endpoint.sourceId}: throttled: not called: our rate limit for its tier (${endpoint.bucket.ratePerSec} requests/s, burst ${endpoint.bucket.capacity}) is used up`,
        )
        continue
      }
      const sizes = sampleAmounts(totalIn, count)
      jobs.push(
        (async () => {
          const settled = await Promise.allSettled(
            sizes.map((x) => askUpstream({ ctx, endpoint, trade: prepared.trade(x), deadline, executable: false })),
          )
          const samples: Sample[] = []
          // One line per kind of failure (the first one's words), with how many sizes it hit.
          const failures = new Map<string, { line: string; n: number }>()
          settled.forEach((s, i) => {
            if (s.status === 'fulfilled')
              samples.push({
                x: sizes[i],
                output: s.value.outputAmount,
                gasUnits: s.value.gasUnits,
                l1FeeWei: ctx.l1FeeWei(s.value.transaction, prepared.gasPriceWei),
              })
            else {
              const kind = (s.reason as { kind?: string }).kind ?? 'internal error'
              const seen = failures.get(kind)
              if (seen) seen.n++
              else failures.set(kind, { line: describeUpstreamFailure(endpoint.sourceId, s.reason), n: 1 })
            }
          })
          const lines = [...failures.values()].map(({ line, n }) => (sizes.length > 1 ? `${line} (${n} of ${sizes.length} sizes)` : line))
          return { sourceId: endpoint.sourceId, endpoint, samples, asked: sizes.length, errors: lines }
        })(),
      )
    }
  }
  const sources = await Promise.all(jobs)
  for (const source of sources) errors.push(...source.errors)
  return { sources, errors }
}
