import type { Address } from 'viem'
import type { SolverPlan } from '../../bindings/types.ts'
import type { MarketState } from '../market/MarketState.ts'
import { applyIntegratorFee } from './applyIntegratorFee.ts'
import { type BuildRoutePlanParameters, buildRoutePlan } from './buildRoutePlan.ts'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError } from './errors.ts'
import { estimatePlanGas } from './estimatePlanGas.ts'
import type { QuoteRequest, QuoteRoutePlan } from './quoteTypes.ts'
import type { SampledLegMetadata } from './requoteSampledLegs.ts'
import type { DodoTakerOverrides } from './dodoTakerOverrides.ts'

/** What `buildRoutePlan` takes as it is (the chain, the canonical `amountIn`, the searched depth, the native sides), and: */
export type AssembleRoutePlanParameters = Pick<
  BuildRoutePlanParameters,
  'chainId' | 'amountIn' | 'maxHopsSearched' | 'nativeIn' | 'nativeOut'
> & {
  /** The solver's plan, its sampled legs re-quoted (`requoteSolvedPlan`). */
  solved: SolverPlan
  /** The re-quoted legs for `metadata.sampledLegs` (none: the field is left out). */
  sampledLegs: SampledLegMetadata[]
  /** The DODO_V2 pools priced at the taker's rate, by id, for `metadata.takerPricedLegs` (`dodoTakerOverrides`). */
  takerRates?: DodoTakerOverrides['differing']
  /** The request as checked (`checkQuoteRequest`). */
  request: QuoteRequest
  /** The output token as the solver routed it (WETH for the native sentinel). */
  tokenOut: Address
  router: Address
  gasPriceWei: bigint
  market: Pick<MarketState, 'encodeLeg'> & Partial<Pick<MarketState, 'feesAt'>>
}

/**
 * The last phase of a quote: the spec RoutePlan of a solved plan. The integrator fee is taken from
 * the output exactly as the router takes it (`applyIntegratorFee`), the plan built with its legs'
 * LegData (`buildRoutePlan`) and its gas estimated on its own calldata at `gasPriceWei`, with the
 * L1 data fee of the plan's block (`estimatePlanGas`). A plan that pays the recipient nothing is
 * refused: `feeBps` (400) when the fee takes it all, no route (404) when the trade is too small.
 *
 * @example
 * const plan = assembleRoutePlan({ solved, sampledLegs: [], request, tokenOut: usdc, chainId: 8453, router, amountIn: '1000000000000000000', maxHopsSearched: 3, nativeIn: true, nativeOut: false, gasPriceWei: 10_000_000n, market })
 * // for a solve paying 3000000000 with feeBps: 5 and slippageBps: 50 →
 * // { expectedAmountOut: '2998500000', minAmountOut: '2983507500', feeBreakdown: { protocolFeeAmount: '0', integratorFeeAmount: '1500000' },
 * //   gasEstimate: { gasUnits, gasCostWei: gasUnits × 10_000_000 + the block's L1 data fee }, blockNumber: solved.blockNumber, routes, metadata, … }
 */
export function assembleRoutePlan({
  solved,
  sampledLegs,
  takerRates,
  request,
  tokenOut,
  router,
  gasPriceWei,
  market,
  // chainId, amountIn, maxHopsSearched, nativeIn, nativeOut: as buildRoutePlan takes them
  ...planFields
}: AssembleRoutePlanParameters): QuoteRoutePlan {
  // The solver answers the block its market was at for this very solve: the plan's promise.
  const blockNumber = solved.blockNumber
  if (blockNumber === null) throw new QuoteMarketStaleError({ message: 'the solver holds no block snapshot' })
  const feeBps = request.feeBps ?? 0
  const { feeAmount, amountOut, minAmountOut } = applyIntegratorFee({
    totalOut: BigInt(solved.expectedAmountOut),
    feeBps,
    slippageBps: request.slippageBps,
  })
  if (amountOut === 0n && feeAmount > 0n) {
    // Only a 100 % fee takes everything (the fee is floored); the HTTP layer's cap refuses it first.
    throw new InvalidQuoteRequestError({
      field: 'feeBps',
      message: `${feeBps} bps takes the whole output (${feeAmount} of ${tokenOut}): the recipient would receive nothing`,
    })
  }
  if (amountOut === 0n)
    throw new NoRouteError({
      message: `the amount is too small: the best route pays nothing of ${tokenOut} for amountIn ${request.amountIn}`,
    })

  const plan = buildRoutePlan({
    ...planFields,
    solved,
    blockNumber,
    request,
    fee: { feeBps, feeAmount, amountOut, minAmountOut },
    encodeLeg: (poolId, direction) => market.encodeLeg(poolId, direction),
  })
  if (sampledLegs.length > 0) plan.metadata.sampledLegs = sampledLegs
  const takerPricedLegs = solved.routes.flatMap((r, route) =>
    r.legs.flatMap((l, leg) => {
      const rates = takerRates?.get(l.poolId)
      return rates ? [{ route, leg, poolId: l.poolId, ...rates }] : []
    }),
  )
  if (takerPricedLegs.length > 0) plan.metadata.takerPricedLegs = takerPricedLegs
  plan.gasEstimate = estimatePlanGas({
    plan,
    solved,
    taker: request.taker,
    router,
    chainId: planFields.chainId,
    gasPriceWei,
    l1: market.feesAt?.(blockNumber)?.l1,
  })
  return plan
}
