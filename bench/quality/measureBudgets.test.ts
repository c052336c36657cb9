import { describe, expect, it } from 'vitest'
import { createSyntheticMarket } from '../../test/fixtures/syntheticMarket.ts'
import { gapBps } from '../../test/fixtures/gapBps.ts'
import { useLoadedSolver } from '../../test/fixtures/useLoadedSolver.ts'
import { measureBudgets } from './measureBudgets.ts'

describe('measureBudgets', () => {
  const market = createSyntheticMarket({ pools: 100, seed: 7 })
  const solver = useLoadedSolver({ config: { nativeToken: market.nativeToken }, pools: market.pools })

  it("measures each budget's quotes against the trade's bound at a 10 s budget", async () => {
    const request = market.quoteRequest(2, { usd: 10_000 })
    const rows = await measureBudgets({
      solver,
      request,
      budgets: [1, 10_000],
      repeats: 3,
      row: { market: 'synthetic', pools: 100, hops: 2, size: 1 },
    })
    expect(rows.map((r) => r.budget_ms)).toEqual([1, 10_000])
    for (const row of rows) {
      expect(row.quotes).toBe(3)
      const ended = Object.values(row.stopped_in).reduce((sum, n) => sum + n, 0)
      expect(ended + row.refused).toBe(3)
      expect(row.p50_ms).toBeGreaterThan(0)
      expect(row.p99_ms).toBeGreaterThanOrEqual(row.p50_ms)
    }
    // Unhurried, a quote of a wei more is the reference trade's plan to within a unit or two of
    // output: its gap to the reference's bound is the reference plan's own gap, to a millionth.
    const reference = await solver.quote({ ...request, timeBudgetMs: 10_000 })
    const own = gapBps(BigInt(reference.metadata.upperBound ?? 0), BigInt(reference.expectedAmountOut))
    const unhurried = rows[1]!
    expect(unhurried.stopped_in).toEqual({ converged: 3 })
    expect(unhurried.median_gap_bps).toBeCloseTo(own, 4)
    expect(unhurried.worst_gap_bps).toBeGreaterThanOrEqual(unhurried.median_gap_bps ?? Infinity)
  })
})
