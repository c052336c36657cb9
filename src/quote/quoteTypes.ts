import type { Address, Hex } from 'viem'
import type { DexId, SolverPhase } from '../../bindings/types.ts'
import type { LegData } from '../adapters/PoolAdapter.ts'

// The spec's (000_f13919b75e53ad89.txt) QuoteRequest and RoutePlan as the quote service answers
// them. Amounts are decimal strings, as on the wire.

/** The spec's QuoteRequest. */
export type QuoteRequest = {
  chainId: number
  /** A token, or the native sentinel (0xEeee…EEeE or the zero address). */
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  slippageBps: number
  maxHops?: number
  splitEnabled?: boolean
  enforcePoolDisjoint?: boolean
  allowedDexes?: DexId[]
  /** Integrator fee in bps of the output. */
  feeBps?: number
  taker?: Address
  timeBudgetMs?: number
}

export type QuoteRouteLeg = {
  dex: DexId
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  minOut: string
  poolId: string
  data: LegData
}

export type QuoteSplitRoute = { amountIn: string; legs: QuoteRouteLeg[] }

export type QuoteRouteCandidate = { path: Address[]; dexes: DexId[]; projectedOut: string; allocatedIn: string; score: number }

/** The spec's RouteMetadata; `stoppedBy`, `stoppedIn` and `maxHopsSearched` are our extras (extra properties are allowed). */
export type QuoteRouteMetadata = {
  connectorsConsidered: Address[]
  candidatePaths: number
  selectedPaths: number
  candidates: QuoteRouteCandidate[]
  stoppedBy: 'converged' | 'budget'
  /** The first phase the time budget cut (absent when the solve converged). */
  stoppedIn?: SolverPhase
  /** The path depth searched: the request's `maxHops` (default 3) capped at the solver's deepest search, 4. */
  maxHopsSearched: number
}

/** The spec's RoutePlan, every optional part filled. */
export type QuoteRoutePlan = {
  chainId: number
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  /** What the recipient receives after the integrator fee when the chain has not moved. */
  expectedAmountOut: string
  /** `floor(expected · (10⁴ − slippageBps) / 10⁴)`; the router enforces it after the fee. */
  minAmountOut: string
  feeBps: number
  slippageBps: number
  routes: QuoteSplitRoute[]
  blockNumber: number
  gasEstimate: { gasUnits: number; gasCostWei: string }
  feeBreakdown: { protocolFeeAmount: string; integratorFeeAmount: string }
  metadata: QuoteRouteMetadata
  nativeIn: boolean
  nativeOut: boolean
}

export type { Hex }
