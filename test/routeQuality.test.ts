// Route quality against the certified convex bound (docs/solver-optimizer.md, *The bound*), on
// fixed seeds of the synthetic markets of 100, 1,000 and 10,000 pools, 1- to 3-hop trades from
// 0.01x to 100x of a typical size: every split quote reports the bound and its gap, the plan never
// pays more than the bound (the bound holds) nor less than the best single path, the gaps meet
// the goal of issue 8 (median <= 1 bps, worst <= 5 bps) on every trade (the 100-pool market's 3-hop
// 100x trade, where the optimum strands flow at the middle token, through the re-split of
// `solver-rs/src/route/resplit.rs`), and with gas priced the plan nets at least
// what the gas-free plan and the best single path net at that price. A large time budget makes
// each quote the converged one, so the figures do not depend on the machine's speed.
//
//   npx vitest run test/routeQuality.test.ts   (after npm run build:native)
import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import type { SolverPlan, SolverQuoteRequest } from '../bindings/types.ts'
import { gapBps } from './fixtures/gapBps.ts'
import { createSyntheticMarket } from './fixtures/syntheticMarket.ts'
import { useLoadedSolver } from './fixtures/useLoadedSolver.ts'

const SIZES = [0.01, 0.1, 1, 10, 100]
const TYPICAL_USD = 10_000
/** 0.01 gwei, as the benchmarks price gas. */
const GAS_PRICE_WEI = '10000000'

for (const pools of [100, 1000, 10000]) {
  describe(`route quality on ${pools} synthetic pools (seed 7)`, () => {
    const market = createSyntheticMarket({ pools, seed: 7 })
    const solver = useLoadedSolver({ config: { nativeToken: market.nativeToken }, pools: market.pools })

    const trades = [1, 2, 3].flatMap((hops) => SIZES.map((size) => ({ hops: hops as 1 | 2 | 3, size })))
    const request = ({ hops, size }: (typeof trades)[number]): SolverQuoteRequest => {
      return market.quoteRequest(hops, { usd: TYPICAL_USD * size, timeBudgetMs: 10_000 })
    }
    /** The plan, or null where the market has no path at all for the trade. */
    const quoteOrNone = async (r: SolverQuoteRequest): Promise<SolverPlan | null> => {
      try {
        return await solver.quote(r)
      } catch (error) {
        if (/no path .* can take any of the amount/.test((error as Error).message)) return null
        throw error
      }
    }

    it(
      'reaches the bound: median gap <= 1 bps, worst <= 5 bps, never above the bound nor below the best single path',
      { timeout: 120_000 },
      async () => {
        const gaps: number[] = []
        for (const trade of trades) {
          const label = `${trade.hops}-hop ${trade.size}x`
          const plan = await quoteOrNone(request(trade))
          if (plan === null) continue
          const single = await solver.quote({ ...request(trade), splitEnabled: false })
          const { upperBound, gapBps: reported } = plan.metadata
          assert.ok(upperBound !== undefined && reported !== undefined, `${label}: no bound in the metadata`)
          const [bound, out] = [BigInt(upperBound), BigInt(plan.expectedAmountOut)]
          assert.ok(out <= bound, `${label}: the plan pays ${out}, above the bound ${bound}`)
          assert.ok(out >= BigInt(single.expectedAmountOut), `${label}: below the best single path`)
          const gap = gapBps(bound, out)
          assert.ok(Math.abs(gap - reported) < 1e-3, `${label}: metadata gapBps ${reported} against ${gap}`)
          assert.ok(gap <= 5, `${label}: gap ${gap} bps`)
          gaps.push(gap)
        }
        gaps.sort((a, b) => a - b)
        assert.ok(gaps.length >= 12, `only ${gaps.length} trades quoted`)
        assert.ok((gaps[gaps.length >> 1] as number) <= 1, `median gap ${gaps[gaps.length >> 1]} bps`)
      },
    )

    it(
      'with gas priced, nets at least what the gas-free plan and the best single path net at that price',
      { timeout: 120_000 },
      async () => {
        for (const trade of trades) {
          const label = `${trade.hops}-hop ${trade.size}x`
          const free = await quoteOrNone(request(trade))
          if (free === null) continue
          const priced = await solver.quote({ ...request(trade), gasPriceWei: GAS_PRICE_WEI })
          const single = await solver.quote({ ...request(trade), gasPriceWei: GAS_PRICE_WEI, splitEnabled: false })
          const net = (plan: SolverPlan) => BigInt(plan.expectedAmountOut) - BigInt(plan.gasCostInTokenOut)
          assert.ok(BigInt(priced.gasCostInTokenOut) > 0n, `${label}: gas was not priced`)
          assert.ok(net(priced) >= net(single), `${label}: nets ${net(priced)}, below the best single path's ${net(single)}`)
          // The gas-free plan's cost at this price, from the priced plan's: the pricer charges
          // ceil(units * q), so units_free * cost / units is within units_free / units + 1 of it.
          const [units, cost] = [BigInt(priced.gasUnits), BigInt(priced.gasCostInTokenOut)]
          const freeUnits = BigInt(free.gasUnits)
          const freeNet = BigInt(free.expectedAmountOut) - (freeUnits * cost) / units
          const rounding = freeUnits / units + 2n
          assert.ok(
            net(priced) + rounding >= freeNet,
            `${label}: nets ${net(priced)}, below the gas-free plan's ${freeNet} at the same price`,
          )
          assert.ok(
            BigInt(priced.expectedAmountOut) <= BigInt(priced.metadata.upperBound ?? 0n),
            `${label}: the priced plan pays above the bound`,
          )
        }
      },
    )
  })
}
