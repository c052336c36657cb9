import { describe, expect, it } from 'vitest'
import { createSyntheticMarket } from '../../test/fixtures/syntheticMarket.ts'
import { gapBps } from '../../test/fixtures/gapBps.ts'
import { useLoadedSolver } from '../../test/fixtures/useLoadedSolver.ts'
import { measureTrade } from './measureTrade.ts'

describe('measureTrade', () => {
  const market = createSyntheticMarket({ pools: 100, seed: 7 })
  const solver = useLoadedSolver({ config: { nativeToken: market.nativeToken }, pools: market.pools })

  it('reports our plan, the single path and water-filling against one bound', async () => {
    const trade = market.trade(2, 10_000)
    const request = { tokenIn: trade.tokenIn, tokenOut: trade.tokenOut, amountIn: trade.amountIn, slippageBps: 50, maxHops: 2 }
    const row = await measureTrade({ solver, request, repeats: 1, row: { market: 'synthetic', pools: 100, hops: 2, size: 1 } })
    expect(row.error).toBeUndefined()
    const [bound, ours, wf] = [BigInt(row.bound ?? 0), BigInt(row.ours ?? 0), BigInt(row.waterfill ?? 0)]
    expect(row.gap_bps).toBe(gapBps(bound, ours))
    expect(row.waterfill_gap_bps).toBe(gapBps(bound, wf))
    // The difference is the difference of the gaps, to rounding.
    expect(row.ours_minus_waterfill_bps).toBeCloseTo((row.waterfill_gap_bps ?? 0) - (row.gap_bps ?? 0), 5)
    expect(Math.sign(row.ours_minus_waterfill_bps ?? 0)).toBe(Math.sign(Number(ours - wf)))
    expect(row.waterfill_strategy).toMatch(/^(singlePath|coarseDisjoint|refinedDisjoint|fillAndSpill)$/)
    expect(row.waterfill_longest_walk).toBeGreaterThanOrEqual(1)
    expect(row.time_ms).toBeGreaterThan(0)
    expect(row.waterfill_time_ms).toBeGreaterThan(0)
  })

  it('keeps a trade no path can take as a row with its error', async () => {
    const trade = market.trade(1, 1_000_000)
    const request = { tokenIn: trade.tokenIn, tokenOut: trade.tokenOut, amountIn: trade.amountIn, slippageBps: 50, maxHops: 1 }
    const row = await measureTrade({ solver, request, repeats: 1, row: { market: 'synthetic', pools: 100, hops: 1, size: 100 } })
    expect(row.error).toMatch(/no route/)
    expect(row.ours).toBeNull()
  })
})
