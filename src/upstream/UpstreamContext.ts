import type { Address } from 'viem'
import type { QuoteRequest, QuoteRoutePlan } from '../quote/quoteTypes.ts'
import type { GasCostInTokenOut } from './createGasCostPricer.ts'
import type { UpstreamEndpoint } from './createUpstreamEndpoint.ts'
import type { UpstreamTransaction } from './UpstreamAdapter.ts'

/** Our own solver as one more source: a plan at any size, and a quoteId for the plan chosen. */
export type LocalSource = {
  quote: (request: QuoteRequest) => Promise<QuoteRoutePlan>
  /** Caches the plan under the caller's key, like POST /quote (so /submit takes its quoteId). */
  issue: (plan: QuoteRoutePlan) => Promise<{ quoteId: string; expiresAt: number }>
}

/** One upstream call, for the operator's log (never a key, never a body). */
export type UpstreamCallEvent = { sourceId: string; kind: 'price' | 'executable'; amountIn: string; ms: number; outcome: string }

/** What /quote/compare and /quote/split run on (built once by createUpstreamService). */
export type UpstreamContext = {
  endpoints: UpstreamEndpoint[]
  chainId: number
  /** The wrapped native token: the native sentinels are quoted as it locally. */
  weth: Address
  /** The request budget when `timeBudgetMs` is absent (`UPSTREAM_TIME_BUDGET_MS`). */
  defaultBudgetMs: number
  gasPriceWei: () => Promise<bigint>
  decimalsOf: (token: Address) => Promise<number>
  gasCost: (tokenOut: Address, gasPriceWei: bigint) => Promise<GasCostInTokenOut>
  /**
   * The L1 data fee (wei) of one source's transaction at the market's block (an OP-stack chain):
   * exact from its calldata, or for an assumed size when it answered a price (transactionL1FeeWei).
   * 0 on a chain without one.
   */
  l1FeeWei: (transaction: UpstreamTransaction | undefined, gasPriceWei: bigint) => bigint
  log: (event: UpstreamCallEvent) => void
  now: () => number
}
