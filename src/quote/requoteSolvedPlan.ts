import { type Address, getAddress } from 'viem'
import type { DexId, Solver, SolverPlan } from '../../bindings/types.ts'
import type { PropAmmQuoteAsk } from '../adapters/propAmm/propAmmQuotesAsExecutor.ts'
import { type PropAmmDexId, propAmmDexIds } from '../adapters/propAmm/propAmmDexIds.ts'
import { propAmmMarginBps } from '../adapters/propAmm/propAmmMarginBps.ts'
import type { MarketState } from '../market/createMarketState.ts'
import { QuoteMarketStaleError } from './errors.ts'
import {
  type ExactLegOut,
  legsToResimulate,
  priorSwapsKey,
  type RequotedPlan,
  requoteSampledLegs,
  type SampledQuotes,
  sampledLegAsks,
  type SampledVenue,
} from './requoteSampledLegs.ts'
import { isSettledPlan } from './solveOnSettledBlock.ts'

export type RequoteSolvedPlanParameters = {
  solved: SolverPlan
  slippageBps: number
  market: Pick<MarketState, 'pools'> & Partial<Pick<MarketState, 'isSettled' | 'freshness'>>
  /** The venues asked in one call (`CreateQuoteServiceParameters.requoteSampled`); absent: the solver's amounts stand. */
  requoteSampled?: (asks: PropAmmQuoteAsk[]) => Promise<SampledQuotes>
  /** Prices the pool legs after a re-quoted sampled leg exactly (`legsToResimulate`); absent: they are scaled, a lower bound. */
  simulate?: Solver['simulate']
  /** One solve within `timeBudgetMs`, its errors already the quote's. */
  solve: (timeBudgetMs: number) => Promise<SolverPlan>
  /** What is left of the quote's budget now, in whole milliseconds. */
  budgetLeftMs: () => number
}

/**
 * The re-quote phase of a quote: sampled venues re-price every block, so they are asked again at
 * the plan's sizes and the plan uses their answers. A venue that now refuses, or pays less than its
 * sampled curve said, is solved around once if the market has moved to a later block meanwhile (its
 * new samples, or its exclusion, are in); a venue refusing still then makes the quote 503
 * (docs/prop-amms.md). A plan without prop AMM legs comes back as solved.
 *
 * @example
 * const { plan, sampledLegs } = await requoteSolvedPlan({ solved, slippageBps: 50, market, requoteSampled, solve, budgetLeftMs })
 * // → plan: the solved plan with each sampled leg's amountOut the venue's quote now (minimums re-derived),
 * //   sampledLegs: [{ route: 0, leg: 0, poolId, dex: 'TESSERA', marginBps, sampledOut: '…', quotedOut: '…', quotedAtBlock }]
 * // a venue refusing on the latest block too → throws QuoteMarketStaleError (503): "a prop AMM venue re-priced away since block …"
 */
export async function requoteSolvedPlan({
  solved,
  slippageBps,
  market,
  requoteSampled,
  simulate,
  solve,
  budgetLeftMs,
}: RequoteSolvedPlanParameters): Promise<RequotedPlan> {
  const requote = async (plan: SolverPlan): Promise<RequotedPlan> => {
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
    // A pass settles at least the next leg of every chain of legs that wait on each other (the next
    // leg of a route, a later leg on a pool an earlier one trades): at most the plan's legs passes.
    const passes = plan.routes.reduce((n, route) => n + route.legs.length, 0)
    for (let pass = 0; simulate && pass < passes; pass++) {
      const pending = legsToResimulate({ solved: plan, requoted: requoted.plan, venueOf: venueOf.venue, exactOuts })
      if (pending.length === 0) break
      for (const { key, poolId, tokenIn, tokenOut, amountIn, priorSwaps } of pending) {
        const amountOut = await simulate({
          poolId,
          tokenIn: tokenIn as Address,
          tokenOut: tokenOut as Address,
          amountIn: amountIn.toString(),
          ...(priorSwaps.length > 0 ? { priorSwaps } : {}),
        })
          .then((result) => BigInt(result.amountOut))
          .catch(() => undefined)
        exactOuts.set(key, { amountIn, amountOut, priorSwaps: priorSwapsKey(priorSwaps) })
      }
      requoted = requoteSampledLegs({ solved: plan, venueOf: venueOf.venue, quotes, slippageBps, exactOuts })
    }
    requoted.refused.push(...venueOf.missing)
    return requoted
  }
  const marketMovedPast = (plan: SolverPlan) => {
    const head = market.freshness?.().blockNumber
    return head !== undefined && plan.blockNumber !== null && head > BigInt(plan.blockNumber)
  }
  let requoted = await requote(solved)
  if ((requoted.refused.length > 0 || requoted.short.length > 0) && marketMovedPast(solved) && budgetLeftMs() >= 1) {
    const reorgsBefore = market.freshness?.().reorgs ?? 0
    const again = await solve(Math.max(1, budgetLeftMs()))
    if (isSettledPlan(market, reorgsBefore, again)) {
      solved = again
      requoted = await requote(solved)
    }
  }
  if (requoted.refused.length > 0) {
    const reason = `a prop AMM venue re-priced away since block ${solved.blockNumber}: ${requoted.refused.map((v) => `${v.dex} ${v.poolId} refuses ${v.amountIn} in`).join('; ')}; ask again`
    throw new QuoteMarketStaleError({ message: reason, publicReason: reason })
  }
  return requoted
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
