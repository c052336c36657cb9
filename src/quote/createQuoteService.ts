import { type Address, getAddress } from 'viem'
import { SolverError } from '../../bindings/errors.ts'
import type { DexId, Solver, SolverPlan, SolverQuoteRequest } from '../../bindings/types.ts'
import type { MarketState } from '../market/createMarketState.ts'
import { MarketStaleError } from '../market/errors.ts'
import { perPoolList } from '../market/perPoolList.ts'
import { estimatePlanGas } from './estimatePlanGas.ts'
import { wrapNativePlan } from './wrapNativePlan.ts'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError } from './errors.ts'
import { checksumAddress } from './checksumAddress.ts'
import { isNativeSentinel } from './isNativeSentinel.ts'
import type { QuoteRequest, QuoteRoutePlan } from './quoteTypes.ts'
import { SOLVER_DEFAULT_MAX_HOPS, SOLVER_MAX_HOPS } from './solverHopLimits.ts'
import { createQuoteRequestCheck } from './checkQuoteRequest.ts'
import type { PropAmmQuoteAsk } from '../adapters/propAmm/propAmmQuotesAsExecutor.ts'
import { SOLVER_DEFAULT_TIME_BUDGET_MS } from './solverTimeBudget.ts'
import type { SampledQuotes } from './requoteSampledLegs.ts'
import { assembleRoutePlan } from './assembleRoutePlan.ts'
import { requoteSolvedPlan } from './requoteSolvedPlan.ts'
import { solveOnSettledBlock } from './solveOnSettledBlock.ts'
import { createSolveQueue } from './createSolveQueue.ts'
import { dodoTakerOverrides, type ReadTakerRates, sameTakerOverrides } from './dodoTakerOverrides.ts'

export type CreateQuoteServiceParameters = {
  /** `simulate` (when given) prices the pool legs after a re-quoted sampled leg exactly (`legsToResimulate`). */
  solver: Pick<Solver, 'quote'> & Partial<Pick<Solver, 'simulate'>>
  /**
   * With `isSettled` and `freshness`, a plan solved across a reorg that dropped its block is solved
   * again within what is left of the time budget (never served on a dropped block); with `feesAt`,
   * the plan's block's L1 data fee enters `gasEstimate.gasCostWei`.
   */
  market: Pick<MarketState, 'assertFresh' | 'encodeLeg' | 'pools'> & Partial<Pick<MarketState, 'isSettled' | 'freshness' | 'feesAt'>>
  chainId: number
  /** The wrapped native token the sentinels stand for. */
  weth: Address
  /** Our swap router: the `to` of every transaction built from these plans. */
  router: Address
  /** The chain's gas price in wei (e.g. `() => publicClient.getGasPrice()`). */
  getGasPriceWei: () => Promise<bigint>
  /** The budget of a request without `timeBudgetMs`: the solver's (`defaultTimeBudgetMs`, default 50). */
  defaultTimeBudgetMs?: number
  /** Milliseconds on a monotonic clock (default `performance.now`): the budget is measured on it. */
  now?: () => number
  /**
   * Asks the sampled venues (prop AMMs) of a plan their quotes now, as the router, in one call
   * (`propAmmQuotesAsExecutor` at `latest`): the plan then uses those amounts (docs/prop-amms.md).
   * Absent: the solver's sampled amounts are the plan's (tests without a chain).
   */
  requoteSampled?: (asks: PropAmmQuoteAsk[]) => Promise<SampledQuotes>
  /**
   * Reads the DODO_V2 maintainer rates a request's `taker` pays at the market's block (as the pools,
   * `readDodoTakerRates`, cached by `cacheTakerRates`): such a request is priced at them
   * (`dodoTakerOverrides`, docs/dex-kinds.md "DODO_V2"). Absent: every request at the market's
   * (the anonymous trader's) rates.
   */
  readDodoTakerRates?: ReadTakerRates
}

export type QuoteService = {
  /** The router the plans are built for (the submit step's `to`). */
  router: Address
  /** Prices `request` on the current snapshot; throws a `QuoteError` subclass when it cannot. */
  quote: (request: QuoteRequest) => Promise<QuoteRoutePlan>
}

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
 * // → a RoutePlan: { routes, expectedAmountOut, minAmountOut, gasEstimate, blockNumber, … } (amounts as decimal strings)
 * const { data, value } = encodeSwapExactIn({ plan, recipient: user, deadline })
 */
export function createQuoteService({
  solver,
  market,
  chainId,
  weth,
  router,
  getGasPriceWei,
  defaultTimeBudgetMs = SOLVER_DEFAULT_TIME_BUDGET_MS,
  now = () => performance.now(),
  requoteSampled,
  readDodoTakerRates,
}: CreateQuoteServiceParameters): QuoteService {
  const wethAddress = getAddress(weth)
  const solves = createSolveQueue()
  const checkQuoteRequest = createQuoteRequestCheck({ chainId, weth: wethAddress, router: getAddress(router) })
  const assertFresh = () => {
    try {
      market.assertFresh()
    } catch (error) {
      if (error instanceof MarketStaleError) throw new QuoteMarketStaleError({ message: error.message, cause: error })
      throw error
    }
  }
  return {
    router: getAddress(router),
    quote: async (request) => {
      // The budget covers the whole quote, from here: the waits before the solve, the solve, and
      // a solve again after a reorg (docs/quote.md, "The time budget").
      const startedAt = now()
      const r = checkQuoteRequest(request)
      const budgetMs = r.timeBudgetMs ?? defaultTimeBudgetMs
      const budgetLeftMs = () => Math.floor(startedAt + budgetMs - now())
      const { tokenIn, tokenOut, nativeIn, nativeOut, wrap } = resolvePair(r, wethAddress)
      assertFresh()
      if (wrap) return quoteWrap({ request: r, nativeIn, chainId, weth: wethAddress, router, market, getGasPriceWei })
      if (r.allowedDexes) assertSomeDexPresent(r.allowedDexes, market.pools())
      const gasPriceWei = await getGasPriceWei()

      // Any maxHops >= 1 is valid (spec); deeper than the solver's search means its deepest search.
      const maxHopsSearched = Math.min(r.maxHops ?? SOLVER_DEFAULT_MAX_HOPS, SOLVER_MAX_HOPS)
      // Canonical decimal: AmountString allows leading zeros, the solver takes at most 78 digits.
      const amountIn = BigInt(r.amountIn).toString()
      const readTaker = (blockNumber?: bigint) =>
        dodoTakerOverrides({ taker: r.taker, allowedDexes: r.allowedDexes, market, readRates: readDodoTakerRates, blockNumber }).catch(
          (error: unknown) => {
            const reason = `the DODO_V2 maintainer rates of taker ${r.taker} could not be read: ask again`
            throw new QuoteMarketStaleError({ message: `${reason} (${String(error)})`, publicReason: reason, cause: error })
          },
        )
      let taker = await readTaker()
      const overridesOf = () => (taker && taker.overrides.length > 0 ? { poolOverrides: taker.overrides } : {})
      const solverRequest: SolverQuoteRequest = {
        tokenIn,
        tokenOut,
        amountIn,
        slippageBps: r.slippageBps,
        maxHops: maxHopsSearched,
        splitEnabled: r.splitEnabled,
        enforcePoolDisjoint: r.enforcePoolDisjoint,
        allowedDexes: r.allowedDexes,
        gasPriceWei: gasPriceWei.toString(),
      }
      const solve = async (timeBudgetMs: number): Promise<SolverPlan> => {
        const askedAt = now()
        const asked = { ...solverRequest, ...overridesOf() }
        try {
          // After the same request's solve in flight: the solver's plan memo may then answer it.
          return await solves.afterSame(JSON.stringify(asked), timeBudgetMs, () =>
            solver.quote({ ...asked, timeBudgetMs: Math.max(1, timeBudgetMs - Math.ceil(now() - askedAt)) }),
          )
        } catch (error) {
          throw quoteErrorOf(error, r, wethAddress)
        }
      }
      let solved = await solveOnSettledBlock({ solve, market, budgetMs, budgetLeftMs, assertFresh })
      // The taker's rates were read at the market's block before the solve; a block that landed
      // meanwhile is the plan's. Read at the plan's block (cached per taker and block): where a rate
      // moved, solved again on those, at most twice, as a reorg is (docs/dex-kinds.md, DODO_V2).
      for (let again = 0; taker && solved.blockNumber !== null && BigInt(solved.blockNumber) !== taker.blockNumber && again < 2; again++) {
        const atPlan = await readTaker(BigInt(solved.blockNumber))
        if (sameTakerOverrides(taker, atPlan)) {
          taker = atPlan
          break
        }
        taker = atPlan
        solved = await solveOnSettledBlock({ solve, market, budgetMs, budgetLeftMs, assertFresh })
      }
      const requoted = await requoteSolvedPlan({
        solved,
        slippageBps: r.slippageBps,
        market,
        requoteSampled,
        simulate: solver.simulate && ((request) => solver.simulate!({ ...request, ...overridesOf() })),
        solve,
        budgetLeftMs,
      })
      return assembleRoutePlan({
        solved: requoted.plan,
        sampledLegs: requoted.sampledLegs,
        takerRates: taker && taker.differing.size > 0 ? taker.differing : undefined,
        request: r,
        tokenOut,
        chainId,
        router,
        amountIn,
        maxHopsSearched,
        nativeIn,
        nativeOut,
        gasPriceWei,
        market,
      })
    },
  }
}

/**
 * The tokens the solver routes (the native sentinel as WETH) and whether the pair is the router's
 * own wrap or unwrap (ETH to WETH or back: a plan of no routes, no pool, no solve).
 */
function resolvePair(
  request: QuoteRequest,
  weth: Address,
): { tokenIn: Address; tokenOut: Address; nativeIn: boolean; nativeOut: boolean; wrap: boolean } {
  const nativeIn = isNativeSentinel(request.tokenIn)
  const nativeOut = isNativeSentinel(request.tokenOut)
  const tokenIn = nativeIn ? weth : checksumAddress(request.tokenIn)
  const tokenOut = nativeOut ? weth : checksumAddress(request.tokenOut)
  const wrap = tokenIn === tokenOut && nativeIn !== nativeOut
  if (tokenIn === tokenOut && !wrap) {
    // No route leads from a token to itself: a market answer, like any other pair without a path
    // (the schema cannot compare two fields, so this is not a validation error).
    throw new NoRouteError({ message: 'tokenOut: must differ from tokenIn' })
  }
  return { tokenIn, tokenOut, nativeIn, nativeOut, wrap }
}

/** A solver error as the quote's: no route (404, with what the request narrowed), invalid input (400, its field); others as they are. */
function quoteErrorOf(error: unknown, request: QuoteRequest, weth: Address): Error {
  const e = SolverError.from(error)
  if (e.kind === 'no route') return new NoRouteError({ message: noRouteMessage(e.detail, request, weth), cause: e })
  if (e.kind === 'invalid input' && e.field === 'poolOverrides') {
    // The taker's rates were read for the market's pools at its block; one left the market before the solve.
    const reason = `the DODO_V2 pools priced for taker ${request.taker} changed before the solve: ask again`
    return new QuoteMarketStaleError({ message: `${reason} (${e.detail})`, publicReason: reason, cause: e })
  }
  if (e.kind === 'invalid input') return new InvalidQuoteRequestError({ field: e.field ?? 'request', message: e.detail, cause: e })
  return e
}

/** The plan of a wrap or an unwrap (`wrapNativePlan`) at the market's block, gas-priced as any plan. */
async function quoteWrap({
  request,
  nativeIn,
  chainId,
  weth,
  router,
  market,
  getGasPriceWei,
}: Pick<CreateQuoteServiceParameters, 'chainId' | 'router' | 'market' | 'getGasPriceWei'> & {
  request: QuoteRequest
  nativeIn: boolean
  weth: Address
}): Promise<QuoteRoutePlan> {
  const blockNumber = market.freshness?.().blockNumber
  if (blockNumber === undefined) throw new QuoteMarketStaleError({ message: 'the market holds no block snapshot' })
  const amountIn = BigInt(request.amountIn).toString()
  const plan = wrapNativePlan({ request, chainId, wrap: nativeIn, amountIn, blockNumber: Number(blockNumber) })
  if (plan.expectedAmountOut === '0')
    throw new InvalidQuoteRequestError({
      field: 'feeBps',
      message: `${plan.feeBps} bps takes the whole output (${amountIn} of ${weth}): the recipient would receive nothing`,
    })
  plan.gasEstimate = estimatePlanGas({
    plan,
    solved: { gasUnits: 0, l1GasPerLeg: 0 },
    taker: request.taker,
    router: getAddress(router),
    chainId,
    gasPriceWei: await getGasPriceWei(),
    l1: market.feesAt?.(blockNumber)?.l1,
  })
  return plan
}

/** The kinds with pools in a pool list of the market's: found once per list, not per quote. */
const kindsOf = perPoolList((pools): ReadonlySet<DexId> => new Set(pools.map((pool) => pool.ref.dex)))

/**
 * `allowedDexes` naming only kinds with no pool on this market can never route: say so, naming the
 * field and the kinds that have pools, instead of a "no path" that blames the tokens. It is the
 * market's answer (no route), not a validation rule: the same request routes where such pools exist.
 */
function assertSomeDexPresent(allowedDexes: DexId[], pools: ReturnType<MarketState['pools']>): void {
  const present = kindsOf(pools)
  if (allowedDexes.some((dex) => present.has(dex))) return
  const kinds = present.size > 0 ? `kinds with pools here: ${[...present].sort().join(', ')}` : 'the market has no pool yet'
  throw new NoRouteError({ message: `allowedDexes: no pool of ${allowedDexes.join(', ')} on this market (${kinds})` })
}

/** The solver's no-route reason, plus what the request itself narrowed (so the cause is not misread). */
function noRouteMessage(detail: string, request: QuoteRequest, weth: Address): string {
  const notes: string[] = []
  if (request.allowedDexes) notes.push(`only ${request.allowedDexes.join(', ')} pools were searched (allowedDexes)`)
  if (request.splitEnabled === false) notes.push('splitting was off (splitEnabled: false)')
  if (isNativeSentinel(request.tokenIn) || isNativeSentinel(request.tokenOut)) notes.push(`the native asset is routed as ${weth}`)
  return notes.length > 0 ? `${detail}; ${notes.join('; ')}` : detail
}
