import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { loadConfig } from '../../src/config/loadConfig.ts'
import type { AdmissionControl } from '../../src/http/admission/createAdmissionControl.ts'
import { type ApiKeyEntry, createApiKeyCheck } from '../../src/http/auth/createApiKeyCheck.ts'
import { createSwapApp } from '../../src/http/createSwapApp.ts'
import { createQuoteIssuer } from '../../src/http/quotes/createQuoteIssuer.ts'
import { createMemoryQuoteStore } from '../../src/http/quotes/createQuoteStore.ts'
import type { SwapApiDependencies } from '../../src/http/SwapApiDependencies.ts'
import { createMemoryRateLimiter } from '../../src/limits/createMemoryRateLimiter.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'
import type { UpstreamService } from '../../src/upstream/createUpstreamService.ts'
import { readUpstreamConfig } from '../../src/upstream/readUpstreamConfig.ts'
import { startUpstreams } from '../../src/upstream/startUpstreams.ts'

export const KEY_A = 'test-key-a-0123456789abcdef'
export const KEY_B = 'test-key-b-0123456789abcdef'
export const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

export type HttpTestStack = {
  service: SwapService
  /** Another app over the same chain, market and quote service, with its own limiter, cache and keys. */
  makeApp: (options?: {
    rateLimitPerMinute?: number
    unauthenticatedPerMinute?: number
    quoteTtlMs?: number
    signingKey?: string
    keys?: (string | ApiKeyEntry)[]
    maxFeeBps?: number
    logger?: FastifyServerOptions['logger'] | false
    feeRecipient?: `0x${string}` | null
    upstreams?: UpstreamService
    admission?: AdmissionControl
  }) => Promise<FastifyInstance>
  /** The six upstreams as `UPSTREAMS_DEMO=1` starts them (stand-ins priced from this market), answering at once; closed with the stack. */
  demoUpstreams: () => Promise<UpstreamService>
  close: () => Promise<void>
}

export type StartHttpTestStackOptions = {
  /**
   * Every solve runs to convergence (a 10 s budget, which the embedded market never reaches) and
   * the demo upstreams wait as long for their quotes. The 50 ms default budget cuts a solve short
   * on a busy machine, so two quotes of one trade can differ: a test that rebuilds the service's
   * answer from quotes of its own and compares exactly needs this.
   */
  converged?: boolean
}

/**
 * The real service for HTTP tests: the embedded seeded chain, the native solver, the market, the
 * quote service and the app (keys A and B, a high rate limit unless a test asks otherwise).
 */
export async function startHttpTestStack({ converged = false }: StartHttpTestStackOptions = {}): Promise<HttpTestStack> {
  const config = loadConfig({
    API_KEYS: `${KEY_A},${KEY_B}`,
    RATE_LIMIT_PER_MINUTE: '1000000',
    MARKET_POLL_INTERVAL_MS: '250',
    MAX_SNAPSHOT_AGE_MS: '600000',
    ...(converged ? { SOLVER_TIME_BUDGET_MS: '10000' } : {}),
  })
  const service = await startSwapService({ config, logger: false })
  const apps: FastifyInstance[] = []
  const upstreamServices: UpstreamService[] = []
  return {
    service,
    demoUpstreams: async () => {
      const upstreams = await startUpstreams({
        config: readUpstreamConfig({ UPSTREAMS_DEMO: '1', ...(converged ? { UPSTREAM_TIME_BUDGET_MS: '10000' } : {}) }, []),
        chainId: service.deps.chainId,
        weth: service.deps.weth,
        quoteService: service.deps.quoteService,
        getGasPriceWei: () => service.publicClient.getGasPrice(),
        client: service.publicClient,
        demoLatency: () => 0,
      })
      upstreamServices.push(upstreams!)
      return upstreams!
    },
    makeApp: async ({
      rateLimitPerMinute = 1_000_000,
      unauthenticatedPerMinute = 1_000_000,
      quoteTtlMs = 30_000,
      signingKey,
      keys = [KEY_A, KEY_B],
      maxFeeBps,
      logger = false,
      feeRecipient,
      upstreams,
      admission,
    } = {}) => {
      const quoteStore = createMemoryQuoteStore({})
      const deps: SwapApiDependencies = {
        ...service.deps,
        feeRecipient: feeRecipient === null ? undefined : (feeRecipient ?? service.deps.feeRecipient),
        maxFeeBps: maxFeeBps ?? service.deps.maxFeeBps,
        apiKeys: createApiKeyCheck({ keys }),
        limiter: createMemoryRateLimiter({ limit: rateLimitPerMinute, windowSec: 60 }),
        sourceLimiter: createMemoryRateLimiter({ limit: unauthenticatedPerMinute, windowSec: 60 }),
        quoteStore,
        quoteIssuer: createQuoteIssuer({ store: quoteStore, ttlMs: quoteTtlMs, signingKey }),
        upstreams,
        admission: admission ?? service.deps.admission,
      }
      const app = await createSwapApp({ deps, logger })
      apps.push(app)
      return app
    },
    close: async () => {
      for (const app of apps) await app.close()
      for (const upstreams of upstreamServices) await upstreams.close()
      await service.fastify.close()
    },
  }
}
