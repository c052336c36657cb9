// Route quality: how far our quotes fall short of the certified convex upper bound on optimal
// routing (docs/solver-optimizer.md, *The bound*), per market, hops and size, at the default
// time budget; and how the gap closes with the time budget.
//
//   npm run bench:quality                   (after npm run build:native)
//   node --import tsx bench/quality.bench.ts --pools 100,1000,10000 --sizes 0.01,0.1,1,10,100
//
// Writes bench/results/quality.json (one row per market, hops and size) and two plots,
// bench/results/quality-gap-by-size.svg and bench/results/quality-gap-by-budget.svg.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { loadSolver } from '../bindings/index.ts'
import type { SolverPlan, SolverQuoteRequest } from '../bindings/types.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'
import { plotGapSvg, type GapSeries } from './quality/plotGapSvg.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '100,1000,10000' },
    sizes: { type: 'string', default: '0.01,0.1,1,10,100' },
    budgets: { type: 'string', default: '1,2,5,10,20,50' },
    repeats: { type: 'string', default: '5' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string', default: 'bench/results/quality.json' },
  },
})
const SIZES = values.sizes.split(',').map(Number)
const BUDGETS = values.budgets.split(',').map(Number)
const REPEATS = Number(values.repeats)
/** 1× is a trade worth about $10,000 (the solver bench's size). */
const TYPICAL_USD = 10_000

type Row = {
  pools: number
  hops: number
  size: number
  amount_in: string
  /** Certified upper bound (raw tokenOut, gas ignored), from the plan's metadata. */
  bound: string | null
  /** Our expectedAmountOut, gas not priced. */
  ours: string | null
  gap_bps: number | null
  /** The best single path's output (splitEnabled false) and its gap. */
  single: string | null
  single_gap_bps: number | null
  /** Gas priced (0.01 gwei): the plan's gross output against the bound, and its gas in bps of it. */
  gas_priced_gap_bps: number | null
  gas_cost_bps: number | null
  /** Median time of the gas-free quote, ms (machine shared: compare relative figures). */
  time_ms: number | null
  routes: number | null
  stopped_by: string | null
  error?: string
}

const gapBps = (bound: bigint, out: bigint) => Number(((bound - out) * 10_000_000_000n) / bound) / 1_000_000
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number

const rows: Row[] = []
const byBudget: GapSeries[] = []
for (const pools of values.pools.split(',').map(Number)) {
  const market = createSyntheticMarket({ pools, seed: Number(values.seed) })
  const solver = await loadSolver({ nativeToken: market.nativeToken }, { backend: 'native' })
  await solver.upsertPools(market.pools)
  for (const hops of [1, 2, 3] as const) {
    for (const size of SIZES) {
      const trade = market.trade(hops, TYPICAL_USD * size)
      const request: SolverQuoteRequest = { tokenIn: trade.tokenIn, tokenOut: trade.tokenOut, amountIn: trade.amountIn, slippageBps: 50, maxHops: hops }
      const row: Row = { pools, hops, size, amount_in: trade.amountIn, bound: null, ours: null, gap_bps: null, single: null, single_gap_bps: null, gas_priced_gap_bps: null, gas_cost_bps: null, time_ms: null, routes: null, stopped_by: null }
      try {
        const plan: SolverPlan = await solver.quote(request)
        const times: number[] = []
        for (let k = 0; k < REPEATS; k++) {
          const t = performance.now()
          await solver.quoteJson(request)
          times.push(performance.now() - t)
        }
        const single = await solver.quote({ ...request, splitEnabled: false })
        const priced = await solver.quote({ ...request, gasPriceWei: '10000000' })
        row.ours = plan.expectedAmountOut
        row.single = single.expectedAmountOut
        row.time_ms = Math.round(median(times) * 1000) / 1000
        row.routes = plan.routes.length
        row.stopped_by = plan.metadata.stoppedBy
        if (plan.metadata.upperBound !== undefined && BigInt(plan.metadata.upperBound) > 0n) {
          const bound = BigInt(plan.metadata.upperBound)
          row.bound = plan.metadata.upperBound
          row.gap_bps = gapBps(bound, BigInt(plan.expectedAmountOut))
          row.single_gap_bps = gapBps(bound, BigInt(single.expectedAmountOut))
          row.gas_priced_gap_bps = gapBps(bound, BigInt(priced.expectedAmountOut))
          row.gas_cost_bps = Number((BigInt(priced.gasCostInTokenOut) * 10_000_000_000n) / bound) / 1_000_000
        }
      } catch (error) {
        row.error = (error as Error).message
      }
      rows.push(row)
      console.error(JSON.stringify(row))
    }
  }
  // Gap against the time budget on the mid-sized trades of this market.
  for (const hops of [2, 3] as const) {
    for (const size of [1, 10]) {
      const trade = market.trade(hops, TYPICAL_USD * size)
      const request: SolverQuoteRequest = { tokenIn: trade.tokenIn, tokenOut: trade.tokenOut, amountIn: trade.amountIn, slippageBps: 50, maxHops: hops }
      const points = []
      for (const budget of BUDGETS) {
        try {
          const plan = await solver.quote({ ...request, timeBudgetMs: budget })
          if (plan.metadata.gapBps !== undefined) points.push({ x: budget, y: plan.metadata.gapBps })
        } catch {
          // No plan within this budget: no point.
        }
      }
      if (points.length > 0) byBudget.push({ label: `${pools} pools ${hops}-hop ${size}×`, points })
    }
  }
  await solver.close()
}

mkdirSync('bench/results', { recursive: true })
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
const bySize: GapSeries[] = []
for (const r of rows) {
  if (r.gap_bps === null) continue
  const label = `${r.pools} pools ${r.hops}-hop`
  const series = bySize.find((s) => s.label === label) ?? bySize[bySize.push({ label, points: [] }) - 1]
  series?.points.push({ x: r.size, y: r.gap_bps })
}
writeFileSync('bench/results/quality-gap-by-size.svg', plotGapSvg({ title: 'Gap to the convex bound at the default budget (50 ms)', xLabel: 'trade size (1× ≈ $10k)', series: bySize }))
writeFileSync('bench/results/quality-gap-by-budget.svg', plotGapSvg({ title: 'Gap to the convex bound against timeBudgetMs', xLabel: 'timeBudgetMs', series: byBudget }))

console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model}), node ${process.version}`)
console.log('| pools | hops | size | gap bps | best single path gap bps | gas priced: gap bps / gas bps | time ms | routes | stopped by |')
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---|')
const fmt = (x: number | null) => (x === null ? '–' : x < 0.01 ? x.toExponential(1) : x.toFixed(2))
for (const r of rows) {
  if (r.error) {
    console.log(`| ${r.pools} | ${r.hops} | ${r.size} | ${r.error} | | | | | |`)
    continue
  }
  console.log(`| ${r.pools} | ${r.hops} | ${r.size} | ${fmt(r.gap_bps)} | ${fmt(r.single_gap_bps)} | ${fmt(r.gas_priced_gap_bps)} / ${fmt(r.gas_cost_bps)} | ${r.time_ms} | ${r.routes} | ${r.stopped_by} |`)
}
const gaps = rows.flatMap((r) => (r.gap_bps === null ? [] : [r.gap_bps]))
console.log(`median gap ${fmt(median(gaps))} bps, worst ${fmt(Math.max(...gaps))} bps over ${gaps.length} quotes`)
