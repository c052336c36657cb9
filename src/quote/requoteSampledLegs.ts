import { type Address, getAddress } from 'viem'
import type { PriorSwap, SolverPlan, SolverRoute } from '../../bindings/types.ts'
import type { PropAmmQuoteAsk } from '../adapters/propAmm/propAmmQuotesAsExecutor.ts'
import type { QuotedDexId } from '../adapters/propAmm/propAmmQuoteCall.ts'

const BPS = 10_000n

/**
 * A prop AMM venue (or a CURVE CryptoSwap pool, `coins` its coins in its order) of the market as the
 * re-quote needs it: its kind, the contract to ask, its margin, and whether the solver priced it by
 * samples (`sampled: false`: LUNARBASE's exact model, still re-quoted because its operator
 * re-prices it every block; not listed in `sampledLegs`).
 */
export type SampledVenue = { dex: QuotedDexId; entry: Address; marginBps: number; sampled: boolean; coins?: readonly Address[] }

/** The venues' answers to a re-quote: the block they were read at, one amount per ask (undefined: refused). */
export type SampledQuotes = { blockNumber: bigint | undefined; amounts: (bigint | undefined)[] }

/** One sampled leg of a plan, as `metadata.sampledLegs` lists it. */
export type SampledLegMetadata = {
  /** Where the leg is: `routes[route].legs[leg]`. */
  route: number
  leg: number
  poolId: string
  dex: QuotedDexId
  /** The venue's margin: what its leg's `minOut` leaves for a re-pricing (docs/prop-amms.md). */
  marginBps: number
  /** What the solver's sampled curve paid for the leg's input, the margin floored off. */
  sampledOut: string
  /** What the venue's own quote view paid for it when the plan was answered (the plan's amount). */
  quotedOut: string
  /** The block of that quote (absent when the service has no re-quote, then quotedOut = sampledOut). */
  quotedAtBlock?: number
}

export type RequotedPlan = {
  /** The plan with the quoted amounts and the derived leg minimums (`expectedAmountOut`, `minAmountOut` too). */
  plan: SolverPlan
  sampledLegs: SampledLegMetadata[]
  /** Sampled legs whose venue now refuses the leg's input (its view reverted or pays nothing). */
  refused: { poolId: string; dex: QuotedDexId; amountIn: string }[]
  /** Sampled legs whose venue now pays less than the solver's sampled amount (the margin already off); exact legs, less than the solver's amount less the margin. */
  short: { poolId: string; dex: QuotedDexId; sampledOut: string; quotedOut: string }[]
}

/** A venue's legs in one direction are one run of input along its curve: keyed by venue and input token. */
const runKey = (leg: { poolId: string; tokenIn: string }) => `${leg.poolId}:${leg.tokenIn.toLowerCase()}`

/**
 * The asks of a plan's sampled legs, in the order `requoteSampledLegs` expects their answers. A
 * venue that a plan trades more than once in the same direction is asked at the running sum of its
 * legs' inputs (in execution order: routes in turn, legs in turn), so a later leg is priced after the
 * earlier ones, as the solver's sampled model prices it: its amount is the difference of two answers.
 */
export function sampledLegAsks(plan: SolverPlan, venueOf: (poolId: string) => SampledVenue | undefined): PropAmmQuoteAsk[] {
  const runIn = new Map<string, bigint>()
  return plan.routes.flatMap((route) =>
    route.legs.flatMap((leg) => {
      const venue = venueOf(leg.poolId)
      if (!venue) return []
      const amountIn = (runIn.get(runKey(leg)) ?? 0n) + BigInt(leg.amountIn)
      runIn.set(runKey(leg), amountIn)
      return [
        {
          dex: venue.dex,
          entry: venue.entry,
          tokenIn: getAddress(leg.tokenIn),
          tokenOut: getAddress(leg.tokenOut),
          amountIn,
          ...(venue.coins ? { coins: venue.coins } : {}),
        },
      ]
    }),
  )
}

/**
 * The plan with each sampled leg at what its venue quoted (`quotes`, answers to `sampledLegAsks`)
 * instead of the solver's sampled estimate, and each leg's `minOut` derived so that a venue
 * re-priced within its margin does not revert the split (docs/prop-amms.md, "Leg minimums"):
 * - a route's legs before its first sampled leg keep the solver's amounts and minimums;
 * - a sampled leg pays `q`, its venue's quote at the leg's input; a later leg of the route whose
 *   input changed with it is scaled: at less input `out·in'/in` (a swap's output is concave and 0
 *   at 0, so this is a lower bound), at more input its planned output (monotone: a lower bound);
 * - `low`, the least a leg pays when every sampled venue up to it re-prices by its whole margin, is
 *   `q·(10⁴ − m)/10⁴` at a sampled leg and the scaled output at the input floor for a pool leg;
 *   its `minOut` is `low·(10⁴ − slippageBps)/10⁴`, the slippage the solver leaves on every leg;
 * - `expectedAmountOut` is the routes' new outputs, `minAmountOut` that at `slippageBps`, as the
 *   solver computes it.
 * All integer, rounded down.
 *
 * @example
 * const { plan, sampledLegs, refused, short } = requoteSampledLegs({ solved, venueOf, quotes: { blockNumber: 120n, amounts: [q] }, slippageBps: 50 })
 * // a plan of one FELTIR leg at 10 bps margin: expectedAmountOut = q, legs[0].minOut = q·0.999·0.995 (floored twice)
 */
export function requoteSampledLegs({
  solved,
  venueOf,
  quotes,
  slippageBps,
  exactOuts,
}: {
  solved: SolverPlan
  venueOf: (poolId: string) => SampledVenue | undefined
  quotes: SampledQuotes
  slippageBps: number
  /**
   * Exact outputs of pool legs after a sampled leg at their new input (`legsToResimulate`, keyed
   * `route:leg`): used where the input matches, instead of the scaled lower bound.
   */
  exactOuts?: ReadonlyMap<string, ExactLegOut>
}): RequotedPlan {
  const keep = BPS - BigInt(slippageBps)
  const sampledLegs: SampledLegMetadata[] = []
  const refused: RequotedPlan['refused'] = []
  const short: RequotedPlan['short'] = []
  let asked = 0
  const runOut = new Map<string, bigint | undefined>()
  // By pool and input token: how much more output earlier legs may have taken than the plan says.
  const pushedOut = new Map<string, bigint>()
  const seen = new Set<string>()
  // By pool: the swaps the plan's earlier legs make on it, at their inputs now (execution order).
  const priorSwaps = new Map<string, PriorSwap[]>()
  const routes: SolverRoute[] = solved.routes.map((route, r) => {
    let input = BigInt(route.amountIn) // what this leg is now expected to receive
    let floor = input // the least it receives with every venue before it re-priced within its margin
    let sampledBefore = false
    const legs = route.legs.map((leg, l) => {
      const [plannedIn, plannedOut] = [BigInt(leg.amountIn), BigInt(leg.amountOut)]
      const venue = venueOf(leg.poolId)
      let out: bigint
      let low: bigint
      if (venue) {
        // The answer is for the venue's run of input so far (`sampledLegAsks`): this leg's is the
        // difference; a leg after a refused one of the same run is refused too.
        const key = runKey(leg)
        const [earlier, wasSeen] = [runOut.get(key), seen.has(key)]
        const answer = quotes.amounts[asked++]
        runOut.set(key, answer)
        seen.add(key)
        const quoted = answer === undefined || (wasSeen && earlier === undefined) ? undefined : answer - (earlier ?? 0n)
        // A venue that pays nothing for this leg's input, or less for the run with it than without
        // (a difference at or below 0: past its inventory or limit), refuses the leg.
        if (quoted === undefined || quoted <= 0n) refused.push({ poolId: leg.poolId, dex: venue.dex, amountIn: leg.amountIn })
        const q = quoted !== undefined && quoted > 0n ? quoted : 0n
        // A sampled estimate has the margin off already; an exact one is short once the venue moved by more than its margin.
        const enough = venue.sampled ? plannedOut : (plannedOut * (BPS - BigInt(venue.marginBps))) / BPS
        if (q < enough) short.push({ poolId: leg.poolId, dex: venue.dex, sampledOut: leg.amountOut, quotedOut: q.toString() })
        if (venue.sampled)
          sampledLegs.push({
            route: r,
            leg: l,
            poolId: leg.poolId,
            dex: venue.dex,
            marginBps: venue.marginBps,
            sampledOut: leg.amountOut,
            quotedOut: q.toString(),
            ...(quotes.blockNumber === undefined ? {} : { quotedAtBlock: Number(quotes.blockNumber) }),
          })
        out = scaledOut(q, plannedIn, input)
        low = (scaledOut(out, input, floor) * (BPS - BigInt(venue.marginBps))) / BPS
        sampledBefore = true
      } else {
        const exact = exactOuts?.get(`${r}:${l}`)
        const isExact =
          exact?.amountOut !== undefined && exact.amountIn === input && exact.priorSwaps === priorSwapsKey(priorSwaps.get(leg.poolId))
        out = isExact ? exact.amountOut! : scaledOut(plannedOut, plannedIn, input)
        low = scaledOut(out, input, floor)
        if (isExact && out !== plannedOut) sampledBefore = true
        // Earlier legs of the plan that put more into this pool than planned (after a re-quoted
        // sampled leg) took at most `pushedOut` more of its output this way: this leg loses at most
        // that (an exact output was priced after them already).
        const key = runKey(leg)
        const loss = isExact ? 0n : (pushedOut.get(key) ?? 0n)
        if (loss > 0n) {
          out = out > loss ? out - loss : 0n
          low = low > loss ? low - loss : 0n
          sampledBefore = true
        }
        // More input than planned: its extra output is at most plannedOut · extra / plannedIn (concave, 0 at 0).
        if (input > plannedIn && plannedIn > 0n) pushedOut.set(key, loss + (plannedOut * (input - plannedIn) + plannedIn - 1n) / plannedIn)
      }
      const next = sampledBefore
        ? { ...leg, amountIn: input.toString(), amountOut: out.toString(), minOut: ((low * keep) / BPS).toString() }
        : leg
      priorSwaps.set(leg.poolId, [...(priorSwaps.get(leg.poolId) ?? []), priorSwapOf(next)])
      input = out
      floor = low
      return next
    })
    return { amountIn: route.amountIn, amountOut: input.toString(), legs }
  })
  const expected = routes.reduce((sum, route) => sum + BigInt(route.amountOut), 0n)
  return {
    plan: { ...solved, routes, expectedAmountOut: expected.toString(), minAmountOut: ((expected * keep) / BPS).toString() },
    sampledLegs,
    refused,
    short,
  }
}

/**
 * A pool leg's exact output at `amountIn` after `priorSwaps` (`priorSwapsKey` of the swaps the
 * plan's earlier legs make on its pool) (the solver's `simulate`); `amountOut` undefined: it
 * refused, keep the lower bound.
 */
export type ExactLegOut = { amountIn: bigint; amountOut: bigint | undefined; priorSwaps: string }

/** A pool leg to simulate at its new input after `priorSwaps`, the earlier legs' on its pool: `key` is `route:leg`. */
export type LegToResimulate = {
  key: string
  poolId: string
  tokenIn: string
  tokenOut: string
  amountIn: bigint
  priorSwaps: PriorSwap[]
}

/** A leg as a prior swap on its pool. */
const priorSwapOf = (leg: { tokenIn: string; tokenOut: string; amountIn: string }): PriorSwap => ({
  tokenIn: getAddress(leg.tokenIn),
  tokenOut: getAddress(leg.tokenOut),
  amountIn: leg.amountIn,
})

/** Identifies a list of prior swaps (an exact output holds only after the same ones). */
export const priorSwapsKey = (swaps: readonly PriorSwap[] | undefined): string =>
  (swaps ?? []).map((s) => `${s.tokenIn.toLowerCase()}>${(s.tokenOut ?? '').toLowerCase()}:${s.amountIn}`).join(',')

/**
 * The pool legs of a re-quoted plan whose exact output is not known yet at their input now and
 * after the swaps the plan's earlier legs make on their pool now (`exactOuts`): a leg whose input a
 * sampled leg before it changed, or whose pool an earlier leg so changed trades too (routes in
 * turn, legs in turn, as the router runs them). Simulating each after its pool's prior swaps, then
 * re-quoting with their outputs, makes the routes exact again instead of a lower bound (a route of
 * a CURVE CryptoSwap leg then exact pools, one of whose pools another route trades too).
 *
 * @example
 * const pending = legsToResimulate({ solved, requoted: requoted.plan, venueOf, exactOuts })
 * // → [{ key: '0:1', poolId, tokenIn, tokenOut, amountIn, priorSwaps: [] }]: simulate each, add to exactOuts, re-quote
 */
export function legsToResimulate({
  solved,
  requoted,
  venueOf,
  exactOuts,
}: {
  solved: SolverPlan
  requoted: SolverPlan
  venueOf: (poolId: string) => SampledVenue | undefined
  exactOuts: ReadonlyMap<string, ExactLegOut>
}): LegToResimulate[] {
  const priorSwaps = new Map<string, PriorSwap[]>()
  // Pools an earlier leg traded at another input than the solver's: every later leg on them moved.
  const movedPools = new Set<string>()
  return requoted.routes.flatMap((route, r) =>
    route.legs.flatMap((leg, l) => {
      const amountIn = BigInt(leg.amountIn)
      const prior = priorSwaps.get(leg.poolId) ?? []
      priorSwaps.set(leg.poolId, [...prior, priorSwapOf(leg)])
      const moved = amountIn !== BigInt(solved.routes[r].legs[l].amountIn)
      const poolMoved = movedPools.has(leg.poolId)
      if (moved) movedPools.add(leg.poolId)
      if ((!moved && !poolMoved) || venueOf(leg.poolId)) return []
      const known = exactOuts.get(`${r}:${l}`)
      if (known?.amountIn === amountIn && known.priorSwaps === priorSwapsKey(prior)) return []
      return [{ key: `${r}:${l}`, poolId: leg.poolId, tokenIn: leg.tokenIn, tokenOut: leg.tokenOut, amountIn, priorSwaps: prior }]
    }),
  )
}

/**
 * A lower bound of what a swap that pays `out` for `plannedIn` pays for `actualIn`: its output is
 * monotone, concave and 0 at 0, so at less input at least the same share, at more at least `out`.
 */
function scaledOut(out: bigint, plannedIn: bigint, actualIn: bigint): bigint {
  if (actualIn >= plannedIn || plannedIn === 0n) return out
  return (out * actualIn) / plannedIn
}
