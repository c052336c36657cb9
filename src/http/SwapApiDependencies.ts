import type { Address } from 'viem'
import type { RateLimiter } from '../limits/RateLimiter.ts'
import type { AdmissionControl } from './admission/createAdmissionControl.ts'
import type { ServiceMetrics } from './metrics/createServiceMetrics.ts'
import type { MarketState } from '../market/MarketState.ts'
import type { QuoteService } from '../quote/createQuoteService.ts'
import type { UpstreamService } from '../upstream/createUpstreamService.ts'
import type { ApiKeyCheck } from './auth/createApiKeyCheck.ts'
import type { readinessReport } from './readinessReport.ts'
import type { QuoteIssuer } from './quotes/createQuoteIssuer.ts'
import type { QuoteStore } from './quotes/createQuoteStore.ts'

/** What the swap surface runs on; `server.ts` (or a test) builds each part. */
export type SwapApiDependencies = {
  quoteService: Pick<QuoteService, 'quote' | 'router'>
  chainId: number
  /** The wrapped native token the router wraps into and unwraps from. */
  weth: Address
  /** Receives the integrator fees of keys without their own `feeRecipient`; without either, `feeBps > 0` is refused. */
  feeRecipient?: Address
  /** The highest `feeBps` of a key without its own `maxFeeBps` (`MAX_FEE_BPS`). */
  maxFeeBps: number
  apiKeys: ApiKeyCheck
  limiter: RateLimiter
  /**
   * Requests without a valid key, counted per source address (`source:<ip>`): past the limit they
   * get 429 instead of 401. Absent: not limited.
   */
  sourceLimiter?: RateLimiter
  quoteStore: QuoteStore
  quoteIssuer: QuoteIssuer
  /** The router deadline written into /submit calldata: this many seconds after the submit call. */
  txDeadlineSec: number
  /**
   * The chain's clock: the timestamp of the market's latest block, in Unix seconds. The router
   * checks its deadline against block time, so a deadline counts from the later of this and `now`.
   */
  chainTimeSec?: () => bigint | undefined
  /** Bounds on solves in flight (per key, overall) and load shedding; absent: none. */
  admission?: AdmissionControl
  /** Prometheus metrics (served on their own port by `createMetricsServer`, not by the app). */
  metrics?: ServiceMetrics
  /** What `GET /ready` answers (the market's age, the solver's state). */
  readiness: () => ReturnType<typeof readinessReport>
  /** The market, for `GET /market/pools/{poolId}` (diagnosis of a plan's pools, and why one is left out); absent: no route. */
  market?: Pick<MarketState, 'poolAt' | 'freshness' | 'skipped'>
  /** The upstream aggregators; with it, /quote/compare and /quote/split are served (docs/upstreams.md). */
  upstreams?: UpstreamService
  now?: () => number
}
