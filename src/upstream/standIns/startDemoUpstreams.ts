import type { ConfiguredUpstream } from '../createUpstreamService.ts'
import { pacedRatePerSec } from '../pacedRatePerSec.ts'
import { upstreamRegistry } from '../registry.ts'
import type { UpstreamId } from '../UpstreamAdapter.ts'
import { latencySampler } from './latencySampler.ts'
import { scaledMarket } from './scaledMarket.ts'
import type { StandInTrade } from './StandInApi.ts'
import { startUpstreamStandIn, type UpstreamStandIn } from './startUpstreamStandIn.ts'

/** Each simulated aggregator's liquidity relative to ours (depth), its extra fee and its gas (exported for the tests that rebuild its prices). */
export const DEMO_PROFILES: Record<UpstreamId, { depth: [bigint, bigint]; feeBps: number; gasUnits: bigint }> = {
  '0x': { depth: [3n, 2n], feeBps: 0, gasUnits: 180_000n },
  '1inch': { depth: [5n, 4n], feeBps: 0, gasUnits: 160_000n },
  kyberswap: { depth: [1n, 1n], feeBps: 5, gasUnits: 200_000n },
  odos: { depth: [4n, 3n], feeBps: 0, gasUnits: 170_000n },
  velora: { depth: [2n, 3n], feeBps: 0, gasUnits: 190_000n },
  openocean: { depth: [1n, 2n], feeBps: 10, gasUnits: 220_000n },
}
const DEMO_API_KEY = 'demo-key-not-a-secret'

/**
 * `UPSTREAMS_DEMO=1`: a local stand-in for each listed upstream, speaking its exact API, priced
 * from our own market scaled to a depth of its own (scaledMarket), answering after a latency drawn
 * around 0x's published /price figures (p50 340 ms, p95 500 ms; the others publish none), and
 * enforcing its published rate limit. Every answer names them `simulated:<id>`: nothing here is a
 * real aggregator's price, and their transactions execute nowhere.
 *
 * @example
 * const demo = await startDemoUpstreams({ ids: ['0x', 'odos'], quote: async (trade) => … })
 * // → { upstreams: [{ id: '0x', sourceId: 'simulated:0x', settings }, …], standIns, close }, each on 127.0.0.1
 * const service = createUpstreamService({ upstreams: demo.upstreams, … })
 */
export async function startDemoUpstreams({
  ids,
  quote,
  chainId = 8453,
  latency = latencySampler({ p50Ms: 340, p95Ms: 500 }),
}: {
  ids: UpstreamId[]
  /** Our own market's output for a trade (undefined: no route). */
  quote: (trade: StandInTrade) => Promise<bigint | undefined>
  chainId?: number
  latency?: () => number
}): Promise<{ upstreams: ConfiguredUpstream[]; standIns: UpstreamStandIn[]; close: () => Promise<void> }> {
  const standIns: UpstreamStandIn[] = []
  try {
    for (const id of ids) {
      const kind = upstreamRegistry[id]
      const profile = DEMO_PROFILES[id]
      const market = scaledMarket({
        quote,
        depth: { numerator: profile.depth[0], denominator: profile.depth[1] },
        feeBps: profile.feeBps,
        gasUnits: profile.gasUnits,
      })
      standIns.push(
        await startUpstreamStandIn({
          id,
          market,
          chainId,
          apiKey: kind.requiresApiKey ? DEMO_API_KEY : undefined,
          behaviour: { latencyMs: latency, rateLimit: { ratePerSec: kind.ratePerSec, burst: kind.burst } },
        }),
      )
    }
  } catch (error) {
    await Promise.all(standIns.map((s) => s.close()))
    throw error
  }
  const upstreams: ConfiguredUpstream[] = standIns.map((standIn) => {
    const kind = upstreamRegistry[standIn.id]
    const options = Object.fromEntries(Object.entries(kind.options).map(([name, spec]) => [name, spec.default]))
    return {
      id: standIn.id,
      sourceId: `simulated:${standIn.id}`,
      settings: {
        baseUrl: standIn.url,
        apiKey: kind.requiresApiKey ? DEMO_API_KEY : undefined,
        ratePerSec: pacedRatePerSec(standIn.id),
        burst: kind.burst,
        options,
      },
    }
  })
  return { upstreams, standIns, close: async () => void (await Promise.all(standIns.map((s) => s.close()))) }
}
