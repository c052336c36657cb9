// Route quality: how far our quotes fall short of the certified convex upper bound on optimal
// routing (docs/solver-optimizer.md, *The bound*), per market, hops and size, at the default time
// budget, beside the best single path and Fynd's water-filling over the same pools
// (`solver.waterfill`, docs/solver-optimizer.md, *Water-filling reference*); and how the gap closes
// with the time budget. Markets: the synthetic ones (seed 7) and the embedded devnet market the
// service runs on (the service started as `npm start` wires it; its solver quoted directly).
//
//   npm run bench:quality                   (after npm run build:native)
//   node --import tsx bench/quality.bench.ts --pools 100,1000,10000 --sizes 0.01,0.1,1,10,100 [--budgets 1,2,5,10,20,50] [--budget-repeats 21] [--markets synthetic,embedded]
//     [--families all]   (the synthetic markets with every pool family, test/fixtures/syntheticFamilies.ts)
//
// Writes bench/results/quality.json (one row per market, trade and size), bench/results/quality-budgets.json
// (per synthetic trade and timeBudgetMs: p50 / p99 time and the median gap to the trade's bound at a 10 s
// budget, over --budget-repeats quotes of fresh amounts) and three plots,
// bench/results/quality-gap-by-size.svg, quality-gap-by-budget.svg and quality-waterfill-by-size.svg
// (the plots go beside --out: a run written elsewhere leaves the recorded ones alone).
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { loadSolver } from '../bindings/index.ts'
import type { SolverQuoteRequest } from '../bindings/types.ts'
import { loadConfig } from '../src/config/loadConfig.ts'
import { startSwapService } from '../src/startSwapService.ts'
import { embeddedMarketTrades, embeddedTradeRequest } from '../test/fixtures/embeddedMarketTrades.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'
import type { SyntheticFamilies } from '../test/fixtures/syntheticFamilies.ts'
import { measureBudgets, type BudgetRow } from './quality/measureBudgets.ts'
import { measureTrade, type QualityRow } from './quality/measureTrade.ts'
import { plotGapSvg, type GapSeries } from './quality/plotGapSvg.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '100,1000,10000' },
    sizes: { type: 'string', default: '0.01,0.1,1,10,100' },
    budgets: { type: 'string', default: '1,2,5,10,20,50' },
    repeats: { type: 'string', default: '5' },
    'budget-repeats': { type: 'string', default: '21' },
    seed: { type: 'string', default: '7' },
    // `all`: the synthetic markets hold every pool family (test/fixtures/syntheticFamilies.ts).
    families: { type: 'string', default: 'default' },
    markets: { type: 'string', default: 'synthetic,embedded' },
    out: { type: 'string', default: 'bench/results/quality.json' },
    'budget-out': { type: 'string', default: 'bench/results/quality-budgets.json' },
  },
})
const SIZES = values.sizes.split(',').map(Number)
const BUDGETS = values.budgets.split(',').map(Number)
const REPEATS = Number(values.repeats)
/** Quotes per trade and budget in the budget table (each a new amount). */
const BUDGET_REPEATS = Number(values['budget-repeats'])
const MARKETS = values.markets.split(',')
/** 1× is a trade worth about $10,000 (the solver bench's size). */
const TYPICAL_USD = 10_000

const rows: QualityRow[] = []
const budgetRows: BudgetRow[] = []
const byBudget: GapSeries[] = []
const loads: number[] = []
const record = (row: QualityRow) => {
  rows.push(row)
  loads.push(loadavg()[0] as number)
  console.error(JSON.stringify(row))
}

if (MARKETS.includes('synthetic')) {
  for (const pools of values.pools.split(',').map(Number)) {
    const market = createSyntheticMarket({ pools, seed: Number(values.seed), families: values.families as SyntheticFamilies })
    const solver = await loadSolver({ nativeToken: market.nativeToken }, { backend: 'native' })
    await solver.upsertPools(market.pools)
    for (const hops of [1, 2, 3] as const) {
      for (const size of SIZES) {
        const request = market.quoteRequest(hops, { usd: TYPICAL_USD * size })
        record(await measureTrade({ solver, request, repeats: REPEATS, row: { market: 'synthetic', pools, hops, size } }))
      }
    }
    // Time and gap against the time budget, every trade of this market at each budget.
    for (const hops of [1, 2, 3] as const) {
      for (const size of SIZES) {
        const request = market.quoteRequest(hops, { usd: TYPICAL_USD * size })
        const measured = await measureBudgets({
          solver,
          request,
          budgets: BUDGETS,
          repeats: BUDGET_REPEATS,
          row: { market: 'synthetic', pools, hops, size },
        })
        for (const row of measured) console.error(JSON.stringify(row))
        budgetRows.push(...measured)
        const points = measured.filter((r) => r.median_gap_bps !== null).map((r) => ({ x: r.budget_ms, y: r.median_gap_bps as number }))
        if (points.length > 0) byBudget.push({ label: `${pools} pools ${hops}-hop ${size}×`, points })
      }
    }
    await solver.close()
  }
}

if (MARKETS.includes('embedded')) {
  const config = loadConfig({ API_KEYS: 'bench-key-0123456789abcdef', PORT: '0', LOG_LEVEL: 'warn' })
  const service = await startSwapService({ config, logger: false, onDiscoveryProgress: () => {} })
  try {
    const market = service.devnet?.market
    if (!market) throw new Error('the service did not start the embedded chain')
    const pools = service.market.pools().length
    for (const trade of embeddedMarketTrades({ market, sizes: SIZES, usd: TYPICAL_USD })) {
      const request: SolverQuoteRequest = embeddedTradeRequest(trade)
      record(
        await measureTrade({
          solver: service.solver,
          request,
          repeats: REPEATS,
          row: { market: 'embedded', pools, pair: trade.pair, hops: trade.hops, size: trade.size },
        }),
      )
    }
  } finally {
    await service.fastify.close()
  }
}

const plots = dirname(values.out)
for (const dir of [plots, dirname(values['budget-out'])]) mkdirSync(dir, { recursive: true })
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
writeFileSync(values['budget-out'], `${JSON.stringify(budgetRows, null, 2)}\n`)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number
const label = (r: QualityRow) => (r.market === 'embedded' ? `embedded ${r.hops}-hop (median)` : `${r.pools} pools ${r.hops}-hop`)
const seriesBySize = (pick: (r: QualityRow) => number | null): GapSeries[] => {
  const out: GapSeries[] = []
  const groups = new Map<string, Map<number, number[]>>()
  for (const r of rows) {
    const y = pick(r)
    if (y === null) continue
    const bySize = groups.get(label(r)) ?? groups.set(label(r), new Map()).get(label(r))!
    bySize.set(r.size, [...(bySize.get(r.size) ?? []), y])
  }
  for (const [name, bySize] of groups) out.push({ label: name, points: [...bySize].map(([x, ys]) => ({ x, y: median(ys) })) })
  return out
}
if (rows.some((r) => r.gap_bps !== null)) {
  writeFileSync(
    join(plots, 'quality-gap-by-size.svg'),
    plotGapSvg({
      title: 'Gap to the convex bound at the default budget (50 ms)',
      xLabel: 'trade size (1× ≈ $10k)',
      series: seriesBySize((r) => r.gap_bps),
    }),
  )
  writeFileSync(
    join(plots, 'quality-waterfill-by-size.svg'),
    plotGapSvg({
      title: "Fynd's water-filling over the same pools: gap to the bound",
      xLabel: 'trade size (1× ≈ $10k)',
      series: seriesBySize((r) => r.waterfill_gap_bps),
    }),
  )
}
if (byBudget.length > 0)
  writeFileSync(
    join(plots, 'quality-gap-by-budget.svg'),
    plotGapSvg({ title: "Median gap to the 10 s quote's bound against timeBudgetMs", xLabel: 'timeBudgetMs', series: byBudget }),
  )

// Summaries for bench/README.md.
const fmt = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : x === 0 ? '0' : Math.abs(x) >= 0.01 ? x.toFixed(2) : x > 0 ? '<0.01' : '>−0.01'
const cells = (group: QualityRow[], pick: (r: QualityRow) => string) =>
  SIZES.map((s) => group.find((r) => r.size === s))
    .map((r) => (r ? (r.error ? 'no route' : pick(r)) : '–'))
    .join(' / ')
console.log(
  `machine: ${cpus().length} cores (${cpus()[0]?.model}), node ${process.version}, load average while measuring: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
)
console.log(`\nsizes: ${SIZES.join(' / ')}`)
console.log(
  '| pools | hops | gap bps | best single path, bps | water-filling, bps | ours − water-filling, bps | gas priced: gap / gas bps (1×) | time ms, ours / water-filling (1×) | routes (1×) |',
)
console.log('|---:|---:|---|---|---|---|---|---|---:|')
for (const pools of [...new Set(rows.filter((r) => r.market === 'synthetic').map((r) => r.pools))]) {
  for (const hops of [1, 2, 3]) {
    const group = rows.filter((r) => r.market === 'synthetic' && r.pools === pools && r.hops === hops)
    const one = group.find((r) => r.size === 1)
    console.log(
      `| ${pools} | ${hops} | ${cells(group, (r) => fmt(r.gap_bps))} | ${cells(group, (r) => fmt(r.single_gap_bps))} | ${cells(group, (r) => fmt(r.waterfill_gap_bps))} | ${cells(group, (r) => fmt(r.ours_minus_waterfill_bps))} | ${fmt(one?.gas_priced_gap_bps)} / ${fmt(one?.gas_cost_bps)} | ${one?.time_ms ?? '–'} / ${one?.waterfill_time_ms ?? '–'} | ${one?.routes ?? '–'} |`,
    )
  }
}
const embedded = rows.filter((r) => r.market === 'embedded')
if (embedded.length > 0) {
  console.log(
    '\n| hops | size | trades routed | gap bps: median / worst | water-filling: median / worst | ours below water-filling | ours below single path | median time ms, ours / water-filling |',
  )
  console.log('|---:|---:|---:|---|---|---:|---:|---|')
  for (const hops of [1, 2, 3]) {
    for (const size of SIZES) {
      const group = embedded.filter((r) => r.hops === hops && r.size === size && r.gap_bps !== null)
      if (group.length === 0) continue
      const gaps = group.map((r) => r.gap_bps as number)
      const wf = group.map((r) => r.waterfill_gap_bps as number)
      const below = group.filter((r) => BigInt(r.ours ?? 0) < BigInt(r.waterfill ?? 0)).length
      const belowSingle = group.filter((r) => BigInt(r.ours ?? 0) < BigInt(r.single ?? 0)).length
      console.log(
        `| ${hops} | ${size} | ${group.length} | ${fmt(median(gaps))} / ${fmt(Math.max(...gaps))} | ${fmt(median(wf))} / ${fmt(Math.max(...wf))} | ${below} | ${belowSingle} | ${median(group.map((r) => r.time_ms as number))} / ${median(group.map((r) => r.waterfill_time_ms as number))} |`,
      )
    }
  }
}
if (budgetRows.length > 0) {
  console.log('\n| pools | hops | size | timeBudgetMs | p50 / p99 ms | median gap bps (worst) | median routes | stopped in | refused |')
  console.log('|---:|---:|---:|---:|---|---|---:|---|---:|')
  for (const r of budgetRows) {
    const stopped = Object.entries(r.stopped_in)
      .map(([phase, n]) => `${phase} ${n}`)
      .join(', ')
    console.log(
      `| ${r.pools} | ${r.hops} | ${r.size} | ${r.budget_ms} | ${r.p50_ms} / ${r.p99_ms} | ${fmt(r.median_gap_bps)} (${fmt(r.worst_gap_bps)}) | ${r.median_routes} | ${stopped} | ${r.refused} |`,
    )
  }
  for (const budget of BUDGETS) {
    for (const pools of [...new Set(budgetRows.map((r) => r.pools))]) {
      for (const size of SIZES) {
        const group = budgetRows.filter((r) => r.budget_ms === budget && r.pools === pools && r.size === size && r.median_gap_bps !== null)
        if (group.length === 0) continue
        console.log(
          `${pools} pools, ${size}×, timeBudgetMs ${budget}: p50 ${median(group.map((r) => r.p50_ms))} ms and median gap ${fmt(median(group.map((r) => r.median_gap_bps as number)))} bps over the ${group.length} trades' medians`,
        )
      }
    }
  }
}
console.log('\nTrades where water-filling paid more than our plan:')
for (const r of rows.filter((r) => r.ours !== null && BigInt(r.ours) < BigInt(r.waterfill ?? 0))) {
  console.log(
    `- ${r.market === 'embedded' ? `embedded ${r.pair}` : `${r.pools} pools`} ${r.hops}-hop ${r.size}×: ours ${r.ours}, water-filling ${r.waterfill} (${r.waterfill_strategy}, walk ${r.waterfill_longest_walk}), bound ${r.bound}; ${fmt(r.ours_minus_waterfill_bps)} bps`,
  )
}
for (const market of ['synthetic', 'embedded']) {
  const gaps = rows.filter((r) => r.market === market && r.gap_bps !== null).map((r) => r.gap_bps as number)
  if (gaps.length > 0)
    console.log(`${market}: median gap ${fmt(median(gaps))} bps, worst ${fmt(Math.max(...gaps))} bps over ${gaps.length} quotes`)
}
