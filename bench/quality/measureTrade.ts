import type { Solver, SolverQuoteRequest } from '../../bindings/types.ts'
import { gapBps } from '../../test/fixtures/gapBps.ts'
import { freshTrade } from '../freshTrade.ts'

/** One quality row: a trade quoted by us, by the best single path and by water-filling, against the bound. */
export type QualityRow = {
  /** `synthetic` (pools = its size) or `embedded` (the devnet market the service runs on). */
  market: 'synthetic' | 'embedded'
  pools: number
  /** Embedded trades: `IN→OUT`. */
  pair?: string
  hops: number
  size: number
  amount_in: string
  /** Certified upper bound (raw tokenOut, gas ignored), from the plan's metadata. */
  bound: string | null
  /** Our expectedAmountOut, gas not priced, at the request's budget. */
  ours: string | null
  gap_bps: number | null
  /** The best single path's output (splitEnabled false) and its gap. */
  single: string | null
  single_gap_bps: number | null
  /** Gas priced (0.01 gwei): the plan's gross output against the bound, and its gas in bps of it. */
  gas_priced_gap_bps: number | null
  gas_cost_bps: number | null
  /** Median time of our gas-free quote, ms (machine shared: compare relative figures). */
  time_ms: number | null
  routes: number | null
  stopped_by: string | null
  /** Fynd's water-filling over the same pools (its tree replayed exactly), gas not priced. */
  waterfill: string | null
  waterfill_gap_bps: number | null
  /** Median time of the water-filling solve, ms. */
  waterfill_time_ms: number | null
  /** Water-filling's allocation run as a plan of ours, one route per path (null if a route fails). */
  waterfill_as_routes: string | null
  waterfill_strategy: string | null
  /** The most hops a unit travels through its tree (can exceed maxHops: see docs/solver-optimizer.md). */
  waterfill_longest_walk: number | null
  /** 10⁴·(ours − water-filling)/bound: negative when water-filling paid more. */
  ours_minus_waterfill_bps: number | null
  error?: string
}

export type MeasureTradeParameters = {
  solver: Solver
  request: SolverQuoteRequest
  /** Timed runs of each solve (their median is reported). */
  repeats: number
  /** The budget water-filling gets (it is the reference, so it runs to completion by default). */
  waterfillBudgetMs?: number
  row: Pick<QualityRow, 'market' | 'pools' | 'pair' | 'hops' | 'size'>
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number

async function timed(repeats: number, run: (k: number) => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let k = 0; k < repeats; k++) {
    const t = performance.now()
    await run(k)
    times.push(performance.now() - t)
  }
  return Math.round(median(times) * 1000) / 1000
}

/**
 * Quotes one trade every way the quality benchmark reports it: our plan (gas free, and with gas
 * priced at 0.01 gwei), the best single path, and Fynd's water-filling over the same pools, each
 * against the certified bound of our plan's metadata. A trade no path can take answers a row with
 * `error` set.
 *
 * @example
 * const row = await measureTrade({ solver, request, repeats: 5, row: { market: 'synthetic', pools: 1000, hops: 2, size: 1 } })
 * console.log(row.gap_bps, row.waterfill_gap_bps)
 * // gap_bps: our plan's shortfall from the certified bound; waterfill_gap_bps: the water-filling's (null when it gave none)
 */
export async function measureTrade({
  solver,
  request,
  repeats,
  waterfillBudgetMs = 10_000,
  row: where,
}: MeasureTradeParameters): Promise<QualityRow> {
  const row: QualityRow = {
    ...where,
    amount_in: request.amountIn,
    bound: null,
    ours: null,
    gap_bps: null,
    single: null,
    single_gap_bps: null,
    gas_priced_gap_bps: null,
    gas_cost_bps: null,
    time_ms: null,
    routes: null,
    stopped_by: null,
    waterfill: null,
    waterfill_gap_bps: null,
    waterfill_time_ms: null,
    waterfill_as_routes: null,
    waterfill_strategy: null,
    waterfill_longest_walk: null,
    ours_minus_waterfill_bps: null,
  }
  try {
    const plan = await solver.quote(request)
    const single = await solver.quote({ ...request, splitEnabled: false })
    const priced = await solver.quote({ ...request, gasPriceWei: '10000000' })
    const waterfillRequest = { ...request, timeBudgetMs: waterfillBudgetMs }
    const waterfill = await solver.waterfill(waterfillRequest)
    // A wei more each time: a repeat of the request would be the snapshot's remembered plan
    // (solver-rs/src/route/plan_memos.rs), no solve.
    row.time_ms = await timed(repeats, (k) => solver.quoteJson(freshTrade(request, k + 1)))
    row.waterfill_time_ms = await timed(repeats, () => solver.waterfill(waterfillRequest))
    row.ours = plan.expectedAmountOut
    row.single = single.expectedAmountOut
    row.waterfill = waterfill.expectedAmountOut
    row.waterfill_as_routes = waterfill.routesAmountOut
    row.waterfill_strategy = waterfill.strategy
    row.waterfill_longest_walk = waterfill.longestWalk
    row.routes = plan.routes.length
    row.stopped_by = plan.metadata.stoppedBy
    if (plan.metadata.upperBound !== undefined && BigInt(plan.metadata.upperBound) > 0n) {
      const bound = BigInt(plan.metadata.upperBound)
      row.bound = plan.metadata.upperBound
      row.gap_bps = gapBps(bound, BigInt(plan.expectedAmountOut))
      row.single_gap_bps = gapBps(bound, BigInt(single.expectedAmountOut))
      row.waterfill_gap_bps = gapBps(bound, BigInt(waterfill.expectedAmountOut))
      row.ours_minus_waterfill_bps =
        Number(((BigInt(plan.expectedAmountOut) - BigInt(waterfill.expectedAmountOut)) * 10_000_000_000n) / bound) / 1_000_000
      row.gas_priced_gap_bps = gapBps(bound, BigInt(priced.expectedAmountOut))
      row.gas_cost_bps = Number((BigInt(priced.gasCostInTokenOut) * 10_000_000_000n) / bound) / 1_000_000
    }
  } catch (error) {
    row.error = (error as Error).message
  }
  return row
}
