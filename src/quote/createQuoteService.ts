import { type Address, getAddress, isAddress } from 'viem'
import { SolverError } from '../../bindings/errors.ts'
import type { DexId, Solver, SolverPlan, SolverQuoteRequest } from '../../bindings/types.ts'
import type { MarketState } from '../market/createMarketState.ts'
import { MarketStaleError } from '../market/errors.ts'
import { encodeSwapExactIn } from '../router/encodeSwapExactIn.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { applyIntegratorFee } from './applyIntegratorFee.ts'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError } from './errors.ts'
import { estimateRouterOverheadGas } from './estimateRouterOverheadGas.ts'
import { checksumAddress } from './checksumAddress.ts'
import { isNativeSentinel } from './isNativeSentinel.ts'
import type { QuoteRequest, QuoteRoutePlan, QuoteSplitRoute } from './quoteTypes.ts'

export type CreateQuoteServiceParameters = {
  solver: Pick<Solver, 'quote'>
  market: Pick<MarketState, 'assertFresh' | 'freshness' | 'encodeLeg'>
  chainId: number
  /** The wrapped native token the sentinels stand for. */
  weth: Address
  /** Our swap router: the `to` of every transaction built from these plans. */
  router: Address
  /** The chain's gas price in wei (e.g. `() => publicClient.getGasPrice()`). */
  getGasPriceWei: () => Promise<bigint>
}

export type QuoteService = {
  /** The router the plans are built for (the submit step's `to`). */
  router: Address
  /** Prices `request` on the current snapshot; throws a `QuoteError` subclass when it cannot. */
  quote: (request: QuoteRequest) => Promise<QuoteRoutePlan>
}

/** Stand-ins for the parts of the calldata a quote does not know (recipient, fee recipient, deadline). */
const STAND_IN_ADDRESS: Address = '0x1111111111111111111111111111111111111111'
const STAND_IN_DEADLINE = 2_000_000_000n
const dexIds = new Set(Object.keys(adapterRegistry))

/**
 * The quote service the HTTP layer wraps: validates a spec QuoteRequest, maps native sentinels to
 * WETH, asks the solver (gas netted at the chain's gas price), and answers a full spec RoutePlan:
 * legs with the adapters' LegData, the snapshot's block, the integrator fee taken from the output
 * exactly as the router takes it, the gas estimate (solver legs + router overhead) and metadata.
 * See docs/quote.md.
 *
 * @example
 * const service = createQuoteService({ solver, market, chainId: 8453, weth, router, getGasPriceWei: () => publicClient.getGasPrice() })
 * const plan = await service.quote({ chainId: 8453, tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', tokenOut: usdc, amountIn: '1000000000000000000', slippageBps: 50 })
 * const { data, value } = encodeSwapExactIn({ plan, recipient: user, deadline })
 */
export function createQuoteService({ solver, market, chainId, weth, router, getGasPriceWei }: CreateQuoteServiceParameters): QuoteService {
  const wethAddress = getAddress(weth)
  return {
    router: getAddress(router),
    quote: async (request) => {
      const r = validate(request, chainId)
      const nativeIn = isNativeSentinel(r.tokenIn)
      const nativeOut = isNativeSentinel(r.tokenOut)
      const tokenIn = nativeIn ? wethAddress : checksumAddress(r.tokenIn)
      const tokenOut = nativeOut ? wethAddress : checksumAddress(r.tokenOut)
      if (tokenIn === tokenOut) {
        // No route leads from a token to itself: a market answer, like any other pair without a path
        // (the schema cannot compare two fields, so this is not a validation error).
        throw new NoRouteError({ message: nativeIn || nativeOut ? 'tokenOut: wrapping or unwrapping the native asset is not a swap' : 'tokenOut: must differ from tokenIn' })
      }
      try {
        market.assertFresh()
      } catch (error) {
        if (error instanceof MarketStaleError) throw new QuoteMarketStaleError({ message: error.message, cause: error })
        throw error
      }
      // Read before the solve: a refresh that lands during the solve may move the solver past this
      // block, never behind it (docs/quote.md).
      const blockNumber = market.freshness().blockNumber
      if (blockNumber === undefined) throw new QuoteMarketStaleError({ message: 'no market snapshot yet' })
      const gasPriceWei = await getGasPriceWei()

      // Canonical decimal: AmountString allows leading zeros, the solver takes at most 78 digits.
      const amountIn = BigInt(r.amountIn).toString()
      const solverRequest: SolverQuoteRequest = {
        tokenIn, tokenOut, amountIn, slippageBps: r.slippageBps,
        maxHops: r.maxHops, splitEnabled: r.splitEnabled, enforcePoolDisjoint: r.enforcePoolDisjoint,
        allowedDexes: r.allowedDexes, gasPriceWei: gasPriceWei.toString(), timeBudgetMs: r.timeBudgetMs,
      }
      let solved: SolverPlan
      try {
        solved = await solver.quote(solverRequest)
      } catch (error) {
        const e = SolverError.from(error)
        if (e.kind === 'no route') throw new NoRouteError({ message: e.detail, cause: e })
        if (e.kind === 'invalid input') throw new InvalidQuoteRequestError({ field: 'request', message: e.detail, cause: e })
        throw e
      }
      const feeBps = r.feeBps ?? 0
      const { feeAmount, amountOut, minAmountOut } = applyIntegratorFee({ totalOut: BigInt(solved.expectedAmountOut), feeBps, slippageBps: r.slippageBps })
      if (amountOut === 0n) throw new NoRouteError({ message: `the amount is too small: it buys nothing of ${tokenOut}` })

      const routes: QuoteSplitRoute[] = solved.routes.map((route) => ({
        amountIn: route.amountIn,
        legs: route.legs.map((leg) => ({
          dex: leg.dex,
          tokenIn: checksumAddress(leg.tokenIn),
          tokenOut: checksumAddress(leg.tokenOut),
          amountIn: leg.amountIn,
          minOut: leg.minOut,
          poolId: leg.poolId,
          data: market.encodeLeg(leg.poolId),
        })),
      }))
      const plan: QuoteRoutePlan = {
        chainId,
        tokenIn: r.tokenIn,
        tokenOut: r.tokenOut,
        amountIn,
        expectedAmountOut: amountOut.toString(),
        minAmountOut: minAmountOut.toString(),
        feeBps,
        slippageBps: r.slippageBps,
        routes,
        blockNumber: Number(blockNumber),
        gasEstimate: { gasUnits: 0, gasCostWei: '0' },
        feeBreakdown: { protocolFeeAmount: '0', integratorFeeAmount: feeAmount.toString() },
        metadata: {
          connectorsConsidered: solved.metadata.connectorsConsidered.map(checksumAddress),
          candidatePaths: solved.metadata.candidatePaths,
          selectedPaths: solved.metadata.selectedPaths,
          candidates: solved.metadata.candidates.map((c) => ({ ...c, path: c.path.map(checksumAddress) })),
          stoppedBy: solved.metadata.stoppedBy,
        },
        nativeIn,
        nativeOut,
      }
      // Calldata gas from the real encoding with stand-ins for what the quote does not know.
      const { data } = encodeSwapExactIn({
        plan,
        recipient: r.taker ?? STAND_IN_ADDRESS,
        feeRecipient: feeBps > 0 ? STAND_IN_ADDRESS : undefined,
        deadline: STAND_IN_DEADLINE,
      })
      const legPools = routes.flatMap((route) => route.legs.map((leg) => leg.poolId.toLowerCase()))
      const repeatedPoolLegs = legPools.length - new Set(legPools).size
      const overhead = estimateRouterOverheadGas({ data, routes: routes.length, nativeIn, nativeOut, paysIntegratorFee: feeAmount > 0n, repeatedPoolLegs })
      const gasUnits = Math.max(21_000, solved.gasUnits + overhead)
      plan.gasEstimate = { gasUnits, gasCostWei: (BigInt(gasUnits) * gasPriceWei).toString() }
      return plan
    },
  }
}

/** The spec's QuoteRequest rules; anything else is refused with the field named. */
function validate(request: QuoteRequest, chainId: number): QuoteRequest {
  const fail = (field: string, message: string): never => {
    throw new InvalidQuoteRequestError({ field, message })
  }
  const int = (field: keyof QuoteRequest, min: number, max: number, required: boolean) => {
    const v = request[field]
    if (v === undefined) return required ? fail(field, 'is required') : undefined
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(field, `must be an integer in ${min}..${max}: ${String(v)}`)
  }
  if (request.chainId !== chainId) fail('chainId', `this service quotes chain ${chainId}, not ${String(request.chainId)}`)
  for (const field of ['tokenIn', 'tokenOut'] as const) {
    if (typeof request[field] !== 'string' || !isAddress(request[field], { strict: false })) fail(field, `not an address: ${String(request[field])}`)
  }
  if (request.taker !== undefined && !isAddress(request.taker, { strict: false })) fail('taker', `not an address: ${request.taker}`)
  if (typeof request.amountIn !== 'string' || !/^[0-9]+$/.test(request.amountIn)) fail('amountIn', `not an amount: ${String(request.amountIn)}`)
  if (BigInt(request.amountIn) === 0n) fail('amountIn', 'must be above 0')
  if (BigInt(request.amountIn) >= 2n ** 256n) fail('amountIn', 'above 2^256 - 1')
  int('slippageBps', 0, 10_000, true)
  int('feeBps', 0, 10_000, false)
  int('maxHops', 1, Number.MAX_SAFE_INTEGER, false)
  int('timeBudgetMs', 50, 10_000, false)
  for (const field of ['splitEnabled', 'enforcePoolDisjoint'] as const) {
    if (request[field] !== undefined && typeof request[field] !== 'boolean') fail(field, 'must be a boolean')
  }
  if (request.allowedDexes !== undefined) {
    if (!Array.isArray(request.allowedDexes) || request.allowedDexes.length === 0) fail('allowedDexes', 'at least one DexId when present')
    for (const dex of request.allowedDexes as DexId[]) if (!dexIds.has(dex)) fail('allowedDexes', `not a DexId: ${String(dex)}`)
  }
  return request
}
