import type { SolverPlan } from '../../bindings/types.ts'
import type { MarketState } from '../market/MarketState.ts'
import { checksumAddress } from './checksumAddress.ts'
import type { QuoteRequest, QuoteRoutePlan, QuoteSplitRoute } from './quoteTypes.ts'

export type BuildRoutePlanParameters = {
  /** The solver's plan for the request. */
  solved: SolverPlan
  /** The block the solver's market was at for this solve (`solved.blockNumber`, checked not null). */
  blockNumber: number
  request: QuoteRequest
  chainId: number
  /** `amountIn` as the canonical decimal the solver was given. */
  amountIn: string
  /** The depth the solver searched: `min(maxHops ?? default, engine's deepest)`. */
  maxHopsSearched: number
  nativeIn: boolean
  nativeOut: boolean
  /** The integrator fee taken from the routes' output (`applyIntegratorFee`) and what is left of it. */
  fee: { feeBps: number; feeAmount: bigint; amountOut: bigint; minAmountOut: bigint }
  /** Each leg's LegData, from the adapter of its pool. */
  encodeLeg: MarketState['encodeLeg']
}

/**
 * The spec RoutePlan of a solver plan: legs with checksummed tokens and their adapters' LegData,
 * the fee split, the metadata with the searched depth. Its `gasEstimate` is zero here:
 * `estimatePlanGas` fills it from the plan's encoding.
 *
 * @example
 * const plan = buildRoutePlan({ solved, blockNumber: solved.blockNumber, request, chainId: 8453, amountIn: '1000', maxHopsSearched: 3, nativeIn: false, nativeOut: false, fee, encodeLeg })
 * plan.routes[0].legs[0].data // { kind: 'univ3', ... }, as the pool's adapter encodes it
 * plan.gasEstimate // { gasUnits: 0, gasCostWei: '0' }
 */
export function buildRoutePlan({
  solved,
  blockNumber,
  request,
  chainId,
  amountIn,
  maxHopsSearched,
  nativeIn,
  nativeOut,
  fee,
  encodeLeg,
}: BuildRoutePlanParameters): QuoteRoutePlan {
  const routes: QuoteSplitRoute[] = solved.routes.map((route) => ({
    amountIn: route.amountIn,
    legs: route.legs.map((leg) => ({
      dex: leg.dex,
      tokenIn: checksumAddress(leg.tokenIn),
      tokenOut: checksumAddress(leg.tokenOut),
      amountIn: leg.amountIn,
      minOut: leg.minOut,
      poolId: leg.poolId,
      data: encodeLeg(leg.poolId, { tokenIn: checksumAddress(leg.tokenIn), tokenOut: checksumAddress(leg.tokenOut) }),
    })),
  }))
  return {
    chainId,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn,
    expectedAmountOut: fee.amountOut.toString(),
    minAmountOut: fee.minAmountOut.toString(),
    feeBps: fee.feeBps,
    slippageBps: request.slippageBps,
    routes,
    blockNumber,
    gasEstimate: { gasUnits: 0, gasCostWei: '0' },
    feeBreakdown: { protocolFeeAmount: '0', integratorFeeAmount: fee.feeAmount.toString() },
    metadata: {
      connectorsConsidered: solved.metadata.connectorsConsidered.map(checksumAddress),
      candidatePaths: solved.metadata.candidatePaths,
      selectedPaths: solved.metadata.selectedPaths,
      candidates: solved.metadata.candidates.map((c) => ({ ...c, path: c.path.map(checksumAddress) })),
      stoppedBy: solved.metadata.stoppedBy,
      ...(solved.metadata.stoppedIn ? { stoppedIn: solved.metadata.stoppedIn } : {}),
      maxHopsSearched,
      ...(solved.metadata.upperBound !== undefined ? { upperBound: solved.metadata.upperBound, gapBps: solved.metadata.gapBps } : {}),
    },
    nativeIn,
    nativeOut,
  }
}
