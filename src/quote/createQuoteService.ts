import { type Address, getAddress } from 'viem'
import { SolverError } from '../../bindings/errors.ts'
import type { DexId, Solver, SolverPlan, SolverQuoteRequest } from '../../bindings/types.ts'
import type { MarketState } from '../market/createMarketState.ts'
import { MarketStaleError } from '../market/errors.ts'
import { applyIntegratorFee } from './applyIntegratorFee.ts'
import { buildRoutePlan } from './buildRoutePlan.ts'
import { estimatePlanGas } from './estimatePlanGas.ts'
import { wrapNativePlan } from './wrapNativePlan.ts'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError } from './errors.ts'
import { checksumAddress } from './checksumAddress.ts'
import { isNativeSentinel } from './isNativeSentinel.ts'
import type { QuoteRequest, QuoteRoutePlan } from './quoteTypes.ts'
import { SOLVER_DEFAULT_MAX_HOPS, SOLVER_MAX_HOPS } from './solverHopLimits.ts'
import { createQuoteRequestCheck } from './checkQuoteRequest.ts'
import {
  type ExactLegOut,
  legsToResimulate,
  type RequotedPlan,
  requoteSampledLegs,
  type SampledQuotes,
  sampledLegAsks,
  type SampledVenue,
} from './requoteSampledLegs.ts'

/** A route has at most this many legs after its first sampled one (the solver's hops). */
const MAX_RESIMULATED_PASSES = 4
import type { PropAmmQuoteAsk } from '../adapters/propAmm/propAmmQuotesAsExecutor.ts'
import { propAmmDexIds, type PropAmmDexId } from '../adapters/propAmm/propAmmDexIds.ts'
import { propAmmMarginBps } from '../adapters/propAmm/propAmmMarginBps.ts'
import { SOLVER_DEFAULT_TIME_BUDGET_MS } from './solverTimeBudget.ts'

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
}: CreateQuoteServiceParameters): QuoteService {
  const wethAddress = getAddress(weth)
  const checkQuoteRequest = createQuoteRequestCheck({ chainId, weth: wethAddress, router: getAddress(router) })
  const marketMovedPast = (plan: SolverPlan) => {
    const head = market.freshness?.().blockNumber
    return head !== undefined && plan.blockNumber !== null && head > BigInt(plan.blockNumber)
  }
  /** The plan's sampled legs asked again (`requoteSampled`), its amounts and minimums derived from the answers. */
  const requote = async (plan: SolverPlan, slippageBps: number): Promise<RequotedPlan> => {
    const venueOf = sampledVenuesOf(plan, market.pools)
    const asks = sampledLegAsks(plan, venueOf.venue)
    const quotes: SampledQuotes =
      asks.length === 0
        ? { blockNumber: undefined, amounts: [] }
        : requoteSampled
          ? await requoteSampled(asks)
          : {
              blockNumber: undefined,
              amounts: plan.routes.flatMap((r) => r.legs.filter((l) => venueOf.venue(l.poolId)).map((l) => BigInt(l.amountOut))),
            }
    let requoted = requoteSampledLegs({ solved: plan, venueOf: venueOf.venue, quotes, slippageBps })
    // Pool legs after a sampled leg, at the input it now pays: simulated exactly, one more leg of a route a pass.
    const exactOuts = new Map<string, ExactLegOut>()
    const simulate = solver.simulate?.bind(solver)
    for (let pass = 0; simulate && pass < MAX_RESIMULATED_PASSES; pass++) {
      const pending = legsToResimulate({ solved: plan, requoted: requoted.plan, venueOf: venueOf.venue, exactOuts })
      if (pending.length === 0) break
      for (const { key, poolId, tokenIn, tokenOut, amountIn } of pending) {
        const amountOut = await simulate({
          poolId,
          tokenIn: tokenIn as Address,
          tokenOut: tokenOut as Address,
          amountIn: amountIn.toString(),
        })
          .then((result) => BigInt(result.amountOut))
          .catch(() => undefined)
        exactOuts.set(key, { amountIn, amountOut })
      }
      requoted = requoteSampledLegs({ solved: plan, venueOf: venueOf.venue, quotes, slippageBps, exactOuts })
    }
    requoted.refused.push(...venueOf.missing)
    return requoted
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
      const nativeIn = isNativeSentinel(r.tokenIn)
      const nativeOut = isNativeSentinel(r.tokenOut)
      const tokenIn = nativeIn ? wethAddress : checksumAddress(r.tokenIn)
      const tokenOut = nativeOut ? wethAddress : checksumAddress(r.tokenOut)
      // ETH to WETH or back: the router's own wrap or unwrap, a plan of no routes (no pool, no solve).
      const wrap = tokenIn === tokenOut && nativeIn !== nativeOut
      if (tokenIn === tokenOut && !wrap) {
        // No route leads from a token to itself: a market answer, like any other pair without a path
        // (the schema cannot compare two fields, so this is not a validation error).
        throw new NoRouteError({ message: 'tokenOut: must differ from tokenIn' })
      }
      const assertFresh = () => {
        try {
          market.assertFresh()
        } catch (error) {
          if (error instanceof MarketStaleError) throw new QuoteMarketStaleError({ message: error.message, cause: error })
          throw error
        }
      }
      assertFresh()
      if (wrap) return quoteWrap({ request: r, nativeIn, chainId, weth: wethAddress, router, market, getGasPriceWei })
      if (r.allowedDexes)
        assertSomeDexPresent(
          r.allowedDexes,
          market.pools().map((pool) => pool.ref.dex),
        )
      const gasPriceWei = await getGasPriceWei()

      // Any maxHops >= 1 is valid (spec); deeper than the solver's search means its deepest search.
      const maxHopsSearched = Math.min(r.maxHops ?? SOLVER_DEFAULT_MAX_HOPS, SOLVER_MAX_HOPS)
      // Canonical decimal: AmountString allows leading zeros, the solver takes at most 78 digits.
      const amountIn = BigInt(r.amountIn).toString()
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
      // The solver's budget is what is left of the quote's (at least its 1 ms floor: a quote whose
      // waits took it all still gets the plan the solver makes with no time, never a refusal).
      const solve = async (timeBudgetMs: number): Promise<SolverPlan> => {
        try {
          return await solver.quote({ ...solverRequest, timeBudgetMs })
        } catch (error) {
          const e = SolverError.from(error)
          if (e.kind === 'no route') throw new NoRouteError({ message: noRouteMessage(e.detail, r, wethAddress), cause: e })
          if (e.kind === 'invalid input') throw new InvalidQuoteRequestError({ field: e.field ?? 'request', message: e.detail, cause: e })
          throw e
        }
      }
      // A reorg detected while the solve ran may have dropped the block it priced. A plan whose
      // block every such reorg kept (only later blocks were dropped) is served as solved; otherwise
      // it is solved again on the market's new head, only within what is left of the budget and
      // only once the market has handled the reorg (until then it is refused, 503, like any quote
      // during a reorg); twice in a row, refused rather than served on a dropped block.
      let solved: SolverPlan | undefined
      for (let attempt = 0; solved === undefined; attempt++) {
        const leftMs = budgetLeftMs()
        if (attempt > 0) {
          if (attempt === 2) {
            const reason = 'the chain reorganised during the solve twice: the plan could not be priced on a settled block'
            throw new QuoteMarketStaleError({ message: reason, publicReason: reason })
          }
          if (leftMs < 1) {
            const reason = `a reorg dropped the block the plan was priced on during the solve, and the time budget of ${budgetMs} ms left no time to solve again: ask again`
            throw new QuoteMarketStaleError({ message: reason, publicReason: reason })
          }
          assertFresh()
        }
        const reorgs = market.freshness?.().reorgs ?? 0
        const plan = await solve(Math.max(1, leftMs))
        const priced = plan.blockNumber === null ? undefined : BigInt(plan.blockNumber)
        if (!market.isSettled || market.isSettled(reorgs, priced)) solved = plan
      }
      // Sampled venues re-price every block: they are asked again at the plan's sizes, and the plan
      // uses their answers. A venue that now refuses, or pays less than its sampled curve said, is
      // solved around once if the market has moved to a later block meanwhile (its new samples, or
      // its exclusion, are in); a venue refusing still then makes the quote 503 (docs/prop-amms.md).
      let requoted = await requote(solved, r.slippageBps)
      if ((requoted.refused.length > 0 || requoted.short.length > 0) && marketMovedPast(solved) && budgetLeftMs() >= 1) {
        const reorgsBefore = market.freshness?.().reorgs ?? 0
        const again = await solve(Math.max(1, budgetLeftMs()))
        if (!market.isSettled || market.isSettled(reorgsBefore, again.blockNumber === null ? undefined : BigInt(again.blockNumber))) {
          solved = again
          requoted = await requote(solved, r.slippageBps)
        }
      }
      if (requoted.refused.length > 0) {
        const reason = `a prop AMM venue re-priced away since block ${solved.blockNumber}: ${requoted.refused.map((v) => `${v.dex} ${v.poolId} refuses ${v.amountIn} in`).join('; ')}; ask again`
        throw new QuoteMarketStaleError({ message: reason, publicReason: reason })
      }
      solved = requoted.plan
      // The solver answers the block its market was at for this very solve: the plan's promise.
      const blockNumber = solved.blockNumber
      if (blockNumber === null) throw new QuoteMarketStaleError({ message: 'the solver holds no block snapshot' })
      const feeBps = r.feeBps ?? 0
      const { feeAmount, amountOut, minAmountOut } = applyIntegratorFee({
        totalOut: BigInt(solved.expectedAmountOut),
        feeBps,
        slippageBps: r.slippageBps,
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
          message: `the amount is too small: the best route pays nothing of ${tokenOut} for amountIn ${r.amountIn}`,
        })

      const plan = buildRoutePlan({
        solved,
        blockNumber,
        request: r,
        chainId,
        amountIn,
        maxHopsSearched,
        nativeIn,
        nativeOut,
        fee: { feeBps, feeAmount, amountOut, minAmountOut },
        encodeLeg: (poolId, direction) => market.encodeLeg(poolId, direction),
      })
      if (requoted.sampledLegs.length > 0) plan.metadata.sampledLegs = requoted.sampledLegs
      plan.gasEstimate = estimatePlanGas({
        plan,
        solved,
        taker: r.taker,
        router,
        chainId,
        gasPriceWei,
        l1: market.feesAt?.(blockNumber)?.l1,
      })
      return plan
    },
  }
}

/**
 * The prop AMM venues (and the CURVE CryptoSwap pools, priced by samples) a plan's legs trade on,
 * from the market's pools: each one's kind, entry
 * contract and margin, and whether the solver priced it by samples (LUNARBASE is priced exactly, but
 * its operator re-prices it too: it is re-quoted all the same, docs/prop-amms.md). A prop AMM leg whose venue has left the market since the solve (paused
 * or stale at the newer block) is `missing`: refused, as if its venue had refused the re-quote.
 */
function sampledVenuesOf(
  plan: SolverPlan,
  pools: MarketState['pools'],
): { venue: (poolId: string) => SampledVenue | undefined; missing: RequotedPlan['refused'] } {
  const isProp = (dex: DexId): dex is PropAmmDexId => (propAmmDexIds as readonly DexId[]).includes(dex)
  // CURVE legs are re-quoted where the market priced their pool by samples (CryptoSwap, docs/dex-kinds.md).
  const quoted = (dex: DexId) => isProp(dex) || dex === 'CURVE'
  const propLegs = plan.routes.flatMap((r) => r.legs).filter((leg) => quoted(leg.dex))
  const venues = new Map<string, SampledVenue>()
  if (propLegs.length === 0) return { venue: () => undefined, missing: [] }
  const ids = new Set(propLegs.map((leg) => leg.poolId))
  for (const { ref, input } of pools()) {
    if (!ids.has(ref.id) || !quoted(ref.dex) || !ref.entry) continue
    const { state } = input
    if (state.model === 'sampled') {
      venues.set(ref.id, {
        dex: ref.dex as SampledVenue['dex'],
        entry: getAddress(ref.entry),
        marginBps: state.marginBps,
        sampled: true,
        ...(ref.coins ? { coins: ref.coins } : {}),
      })
    } else if (state.model === 'lunarbase' && isProp(ref.dex))
      venues.set(ref.id, {
        dex: ref.dex,
        entry: getAddress(ref.entry),
        marginBps: ref.marginBps ?? propAmmMarginBps[ref.dex],
        sampled: false,
      })
  }
  // A CURVE leg is missing only if its pool was sampled; an exact StableSwap leg is not re-quoted.
  const missing = propLegs
    .filter((leg) => isProp(leg.dex) && !venues.has(leg.poolId))
    .map((leg) => ({ poolId: leg.poolId, dex: leg.dex as SampledVenue['dex'], amountIn: leg.amountIn }))
  return { venue: (poolId) => venues.get(poolId), missing }
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

/**
 * `allowedDexes` naming only kinds with no pool on this market can never route: say so, naming the
 * field and the kinds that have pools, instead of a "no path" that blames the tokens. It is the
 * market's answer (no route), not a validation rule: the same request routes where such pools exist.
 */
function assertSomeDexPresent(allowedDexes: DexId[], poolKinds: DexId[]): void {
  const present = new Set(poolKinds)
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
