import type { Solver, SolverQuoteRequest } from '../../bindings/types.ts'
import { gapBps } from '../../test/fixtures/gapBps.ts'
import { freshTrade } from '../freshTrade.ts'

/** One trade at one `timeBudgetMs`: its quotes' time and gap to the trade's unbudgeted bound. */
export type BudgetRow = {
  market: 'synthetic'
  pools: number
  hops: number
  size: number
  budget_ms: number
  /** Quotes timed (each a fresh amount: amountIn + k wei). */
  quotes: number
  /** Median and 99th percentile wall-clock time of a quote, ms. */
  p50_ms: number
  p99_ms: number
  /**
   * Median gap (bps) of the quotes' outputs to the certified bound of the same trade quoted at a
   * 10 s budget (a quote the budget cut may carry no bound of its own, or a looser one).
   */
  median_gap_bps: number | null
  worst_gap_bps: number | null
  /** Median number of routes of the plans. */
  median_routes: number
  /** How many quotes ended in each phase (`converged` when none stopped them). */
  stopped_in: Record<string, number>
  /** Quotes refused (e.g. no route found before a small budget ran out). */
  refused: number
}

export type MeasureBudgetsParameters = {
  solver: Solver
  /** The trade, gas not priced (the quality bench's quotes). */
  request: SolverQuoteRequest
  budgets: number[]
  /** Timed quotes per budget. */
  repeats: number
  row: Pick<BudgetRow, 'market' | 'pools' | 'hops' | 'size'>
}

/** The budget of the reference quote whose bound every budget's gap is measured against. */
const REFERENCE_BUDGET_MS = 10_000

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] as number

/**
 * Quotes one trade at each of `budgets` (`timeBudgetMs`), `repeats` times each, every quote a new
 * amount (so no memo of an earlier quote's bound answers it): the wall-clock p50 and p99, and the
 * median and worst gap of the plans to the trade's bound at a 10 s budget.
 *
 * @example
 * const rows = await measureBudgets({ solver, request, budgets: [5, 50], repeats: 20, row: { market: 'synthetic', pools: 1000, hops: 2, size: 100 } })
 * console.log(rows.map((r) => `${r.budget_ms} ms: p50 ${r.p50_ms} ms, gap ${r.median_gap_bps} bps`))
 */
export async function measureBudgets({ solver, request, budgets, repeats, row }: MeasureBudgetsParameters): Promise<BudgetRow[]> {
  let bound: bigint | null = null
  try {
    const reference = await solver.quote({ ...request, timeBudgetMs: REFERENCE_BUDGET_MS })
    if (reference.metadata.upperBound !== undefined && BigInt(reference.metadata.upperBound) > 0n)
      bound = BigInt(reference.metadata.upperBound)
  } catch {
    // No route at any budget: the rows below say so by their refusals.
  }
  const rows: BudgetRow[] = []
  let n = 0
  for (const budget of budgets) {
    const times: number[] = []
    const gaps: number[] = []
    const routes: number[] = []
    const stopped: Record<string, number> = {}
    let refused = 0
    for (let k = 0; k < repeats; k++) {
      const asked = freshTrade({ ...request, timeBudgetMs: budget }, ++n)
      const t = performance.now()
      try {
        const plan = await solver.quote(asked)
        times.push(performance.now() - t)
        if (bound !== null) gaps.push(gapBps(bound, BigInt(plan.expectedAmountOut)))
        routes.push(plan.routes.length)
        const phase = plan.metadata.stoppedIn ?? 'converged'
        stopped[phase] = (stopped[phase] ?? 0) + 1
      } catch {
        times.push(performance.now() - t)
        refused++
      }
    }
    rows.push({
      ...row,
      budget_ms: budget,
      quotes: repeats,
      p50_ms: Math.round(median(times) * 1000) / 1000,
      p99_ms: Math.round(percentile(times, 99) * 1000) / 1000,
      median_gap_bps: gaps.length > 0 ? median(gaps) : null,
      worst_gap_bps: gaps.length > 0 ? Math.max(...gaps) : null,
      median_routes: routes.length > 0 ? median(routes) : 0,
      stopped_in: stopped,
      refused,
    })
  }
  return rows
}
