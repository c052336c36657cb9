import type { Address } from 'viem'
import { WRAPPED_NATIVE } from '../http/schemas/routePlan.ts'
import { applyIntegratorFee } from './applyIntegratorFee.ts'
import type { QuoteRequest, QuoteRoutePlan } from './quoteTypes.ts'

export type WrapNativePlanParameters = {
  request: QuoteRequest
  chainId: number
  /** The chain's wrapped native token, checksummed. */
  weth: Address
  /** `true`: ETH to WETH (the router's wrap on entry); `false`: WETH to ETH (its unwrap on exit). */
  wrap: boolean
  /** `amountIn` as a canonical decimal. */
  amountIn: string
  /** The market's block: the plan names it like any other (a wrap does not depend on it). */
  blockNumber: number
}

/**
 * The plan of ETH to WETH or WETH to ETH: one route of one `wrap_native` leg (dex
 * `WRAPPED_NATIVE`), which the router runs as its own deposit of `msg.value` on entry or withdraw
 * on exit (docs/route-legs.md). Exact: the recipient receives `amountIn` less the integrator fee,
 * and `minAmountOut` is that same amount (there is no price to move, so no slippage is taken).
 * Its `gasEstimate` is zero here: `estimatePlanGas` fills it from the plan's encoding.
 *
 * @example
 * const plan = wrapNativePlan({ request, chainId: 8453, weth, wrap: true, amountIn: '1000', blockNumber: 12 })
 * plan.expectedAmountOut // '1000' without feeBps
 */
export function wrapNativePlan({ request, chainId, weth, wrap, amountIn, blockNumber }: WrapNativePlanParameters): QuoteRoutePlan {
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
    routes: [
      {
        amountIn,
        legs: [
          {
            dex: WRAPPED_NATIVE,
            tokenIn: weth,
            tokenOut: weth,
            amountIn,
            minOut: amountIn,
            poolId: weth.toLowerCase(),
            data: { kind: 'wrap_native' },
          },
        ],
      },
    ],
    blockNumber,
    gasEstimate: { gasUnits: 0, gasCostWei: '0' },
    feeBreakdown: { protocolFeeAmount: '0', integratorFeeAmount: feeAmount.toString() },
    metadata: {
      connectorsConsidered: [],
      candidatePaths: 1,
      selectedPaths: 1,
      candidates: [],
      stoppedBy: 'converged',
      maxHopsSearched: 1,
    },
    nativeIn: wrap,
    nativeOut: !wrap,
  }
}
