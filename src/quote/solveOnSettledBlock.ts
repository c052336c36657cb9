import type { SolverPlan } from '../../bindings/types.ts'
import type { MarketState } from '../market/createMarketState.ts'
import { QuoteMarketStaleError } from './errors.ts'

/** The market's reorg bookkeeping a solve is checked against (absent: every plan counts as settled). */
export type SettlementWatch = Partial<Pick<MarketState, 'isSettled' | 'freshness'>>

/**
 * Whether a plan solved while `reorgsBefore` reorgs had been seen was priced on a block every later
 * reorg kept (only later blocks were dropped). A market without reorg bookkeeping settles every plan.
 *
 * @example
 * isSettledPlan(market, 3, { blockNumber: 120 }) // the 4th reorg kept blocks up to 118
 * // → false: block 120 may have left the chain (solve again); with no 4th reorg (and none under way) → true
 */
export function isSettledPlan(market: SettlementWatch, reorgsBefore: number, plan: Pick<SolverPlan, 'blockNumber'>): boolean {
  return !market.isSettled || market.isSettled(reorgsBefore, plan.blockNumber === null ? undefined : BigInt(plan.blockNumber))
}

export type SolveOnSettledBlockParameters = {
  /** One solve within `timeBudgetMs` (at least 1), its errors already the quote's. */
  solve: (timeBudgetMs: number) => Promise<SolverPlan>
  market: SettlementWatch
  /** The quote's whole budget, for the refusal's message. */
  budgetMs: number
  /** What is left of the quote's budget now, in whole milliseconds (may be negative). */
  budgetLeftMs: () => number
  /** Throws the quote's 503 while the market is stale (or still handling the reorg). */
  assertFresh: () => void
}

/**
 * The solve phase of a quote: the solver asked within what is left of the budget, and asked again
 * if a reorg detected while it ran may have dropped the block it priced. A plan whose block every
 * such reorg kept is served as solved; otherwise it is solved again on the market's new head, only
 * within what is left of the budget and only once the market has handled the reorg (until then it
 * is refused, 503, like any quote during a reorg); twice in a row, refused rather than served on a
 * dropped block (docs/quote.md, "The time budget").
 *
 * @example
 * const plan = await solveOnSettledBlock({ solve, market, budgetMs: 50, budgetLeftMs, assertFresh })
 * // → the solver's plan, priced on a block no reorg dropped (one solve when no reorg happened)
 * // a reorg during each of two solves → throws QuoteMarketStaleError (503): "the chain reorganised during the solve twice: …"
 */
export async function solveOnSettledBlock({
  solve,
  market,
  budgetMs,
  budgetLeftMs,
  assertFresh,
}: SolveOnSettledBlockParameters): Promise<SolverPlan> {
  for (let attempt = 0; ; attempt++) {
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
    // The solver's budget is what is left of the quote's (at least its 1 ms floor: a quote whose
    // waits took it all still gets the plan the solver makes with no time, never a refusal).
    const plan = await solve(Math.max(1, leftMs))
    if (isSettledPlan(market, reorgs, plan)) return plan
  }
}
