import { applyIntegratorFee } from './applyIntegratorFee.ts'
import type { QuoteRequest, QuoteRoutePlan } from './quoteTypes.ts'

export type WrapNativePlanParameters = {
  request: QuoteRequest
  chainId: number
  /** `true`: ETH to WETH (the router's wrap on entry); `false`: WETH to ETH (its unwrap on exit). */
  wrap: boolean
  /** `amountIn` as a canonical decimal. */
  amountIn: string
  /** The market's block: the plan names it like any other (a wrap does not depend on it). */
  blockNumber: number
}

/**
 * The plan of ETH to WETH or WETH to ETH: no routes, `nativeIn` or `nativeOut`, which the router
 * runs as its own deposit of `msg.value` on entry or withdraw on exit (docs/route-legs.md): the
 * spec's RoutePlan with an empty `routes` array, so no venue or leg kind outside the spec appears.
 * Exact: the recipient receives `amountIn` less the integrator fee, and `minAmountOut` is that
 * same amount (there is no price to move, so no slippage is taken).
 * Its `gasEstimate` is zero here: `estimatePlanGas` fills it from the plan's encoding.
 *
 * @example
 * const plan = wrapNativePlan({ request, chainId: 8453, wrap: true, amountIn: '1000', blockNumber: 12 })
 * plan.expectedAmountOut // '1000' without feeBps
 */
export function wrapNativePlan({ request, chainId, wrap, amountIn, blockNumber }: WrapNativePlanParameters): QuoteRoutePlan {
  const feeBps = request.feeBps ?? 0
  const { feeAmount, amountOut } = applyIntegratorFee({ totalOut: BigInt(amountIn), feeBps, slippageBps: 0 })
  return {
    chainId,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn,
    expectedAmountOut: amountOut.toString(),
    minAmountOut: amountOut.toString(),
    feeBps,
    slippageBps: request.slippageBps,
    routes: [],
    blockNumber,
    gasEstimate: { gasUnits: 0, gasCostWei: '0' },
    feeBreakdown: { protocolFeeAmount: '0', integratorFeeAmount: feeAmount.toString() },
    metadata: {
      connectorsConsidered: [],
      candidatePaths: 0,
      selectedPaths: 0,
      candidates: [],
      stoppedBy: 'converged',
      maxHopsSearched: 0,
    },
    nativeIn: wrap,
    nativeOut: !wrap,
  }
}
