// Where a split quote's time goes: the solver's own time per phase (`metadata.phaseMs`, asked for
// with `timePhases`), median over quotes of one trade (a wei more each time), for the split and the single-path
// quote of the same trade, on synthetic markets. The budget is lifted so that no phase is cut.
// Proportions compare across machines; absolute times only within one run.
//
//   node --import tsx bench/solverPhases.bench.ts [--pools 1000,10000] [--quotes 50] [--backend native]
//
// Writes bench/results/solver-phases.json: one row per (pools, case) with each phase's median ms and
// the plan's gap to the certified bound (`metadata.gapBps`; none on the single path), so a speed cut
// shows its cost in quality in the same run.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { loadSolver } from '../bindings/index.ts'
import { freshTrade } from './freshTrade.ts'
import type { SolverPhase } from '../bindings/types.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '1000,10000' },
    quotes: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '10' },
    backend: { type: 'string', default: 'native' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string', default: 'bench/results/solver-phases.json' },
  },
})
const QUOTES = Number(values.quotes)
const WARMUP = Number(values.warmup)
const BACKEND = values.backend as 'native' | 'wasm'

const CASES = [
  { name: '2-hop split', hops: 2, split: true },
  { name: '2-hop single', hops: 2, split: false },
  { name: '3-hop split', hops: 3, split: true },
] as const

type Row = {
  pools: number
  case: string
  quotes: number
  totalMs: number
  gapBps: number | null
  phaseMs: Partial<Record<SolverPhase, number>>
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0
const round = (x: number) => Math.round(x * 1000) / 1000

const rows: Row[] = []
for (const pools of values.pools.split(',').map(Number)) {
  const market = createSyntheticMarket({ pools, seed: Number(values.seed) })
  const solver = await loadSolver({ nativeToken: market.nativeToken }, { backend: BACKEND })
  await solver.upsertPools(market.pools)
  for (const { name, hops, split } of CASES) {
    const request = market.quoteRequest(hops, { splitEnabled: split, gasPriceWei: '10000000', timeBudgetMs: 10_000, timePhases: true })
    for (let i = 0; i < WARMUP; i++) await solver.quote(request)
    const samples: Partial<Record<SolverPhase, number>>[] = []
    let gapBps: number | null = null
    for (let i = 0; i < QUOTES; i++) {
      // A fresh amount each time (a wei more): no quote is answered by the per-trade bound memo
      // (the pair's graph is lent after the first, bench/freshTrade.ts).
      const { metadata } = await solver.quote(freshTrade(request, i + 1))
      samples.push(metadata.phaseMs ?? {})
      gapBps = metadata.gapBps ?? null
    }
    const phases = [...new Set(samples.flatMap((s) => Object.keys(s)))] as SolverPhase[]
    const phaseMs = Object.fromEntries(phases.map((p) => [p, round(median(samples.map((s) => s[p] ?? 0)))]))
    const totalMs = round(median(samples.map((s) => Object.values(s).reduce((a, b) => a + (b ?? 0), 0))))
    rows.push({ pools, case: name, quotes: QUOTES, totalMs, gapBps, phaseMs })
    console.error(`${pools} pools ${name}: ${JSON.stringify(rows.at(-1))}`)
  }
  await solver.close()
}

mkdirSync('bench/results', { recursive: true })
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
const phases = [...new Set(rows.flatMap((r) => Object.keys(r.phaseMs)))]
console.log(`${cpus()[0]?.model}, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}, ${BACKEND}; median ms of ${QUOTES} quotes`)
console.log(`| pools | quote | ${phases.join(' | ')} | total | gap bps |`)
console.log(`|---:|---|${phases.map(() => '---:|').join('')}---:|---:|`)
for (const r of rows)
  console.log(
    `| ${r.pools.toLocaleString('en-US')} | ${r.case} | ${phases.map((p) => r.phaseMs[p as SolverPhase] ?? '–').join(' | ')} | ${r.totalMs} | ${r.gapBps ?? '–'} |`,
  )
