// Solver latency: quotes (1-, 2-, 3-hop with splits, 2-hop without) and a 1% upsert, on synthetic
// markets of 100, 1,000 and 10,000 mixed pools, native addon and WASM worker.
//
//   npm run bench:solver                      (after npm run build:native && npm run build:wasm)
//   node --import tsx bench/solver.bench.ts --time 1500 --pools 100,1000,10000 --backends native,wasm
//   node --import tsx bench/solver.bench.ts --pools 1000,10000 --families default,all
//
// `--families default,all` measures each size on the default market and on the market with every
// pool family (test/fixtures/syntheticFamilies.ts), one after the other in the same run.
// Writes bench/results/solver.json: one flat row per case.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { Bench, type Task } from 'tinybench'
import { loadSolver, SolverError, type Solver } from '../bindings/index.ts'
import type { SolverQuoteRequest } from '../bindings/types.ts'
import { freshTrade } from './freshTrade.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'
import type { SyntheticFamilies } from '../test/fixtures/syntheticFamilies.ts'

const { values } = parseArgs({
  options: {
    time: { type: 'string', default: '1500' },
    pools: { type: 'string', default: '100,1000,10000' },
    backends: { type: 'string', default: 'native,wasm' },
    out: { type: 'string', default: 'bench/results/solver.json' },
    seed: { type: 'string', default: '7' },
    families: { type: 'string', default: 'default' },
  },
})
const TIME_MS = Number(values.time)
const SIZES = values.pools.split(',').map(Number)
const BACKENDS = values.backends.split(',') as ('native' | 'wasm')[]
const SEED = Number(values.seed)
const FAMILIES = values.families.split(',') as SyntheticFamilies[]

type Row = {
  case: 'quote' | 'upsert_1pct'
  backend: 'native' | 'wasm'
  pools: number
  families: SyntheticFamilies
  hops: number | null
  split: boolean | null
  p50_ms: number
  p99_ms: number
  ops_per_s: number
  samples: number
  /** Quotes only: how the optimizer stopped on the first run (`budget` means the 50 ms default bit). */
  stopped_by?: string
  /** Quotes only: timed quotes answered `no route` (the budget ran out before any path), when any. */
  refused?: number
}

const QUOTE_CASES = [
  { hops: 1, split: true },
  { hops: 2, split: true },
  { hops: 3, split: true },
  { hops: 2, split: false },
] as const

function stats(task: Task): Pick<Row, 'p50_ms' | 'p99_ms' | 'ops_per_s' | 'samples'> {
  const result = task.result
  if (!result || !('latency' in result)) throw new Error(`${task.name}: no result (${JSON.stringify(result)})`)
  const r = (x: number) => Math.round(x * 1000) / 1000
  return {
    p50_ms: r(result.latency.p50),
    p99_ms: r(result.latency.p99),
    ops_per_s: Math.round(result.throughput.mean),
    samples: result.latency.samplesCount,
  }
}

/** One backend's solver on its own copy of the market, with the quote requests of every case. */
type Side = {
  backend: 'native' | 'wasm'
  market: ReturnType<typeof createSyntheticMarket>
  solver: Solver
  requests: { name: string; request: SolverQuoteRequest }[]
}

/** Quotes per backend in the alternating ratio measurement. */
const ALTERNATING_ROUNDS = 200

/** Throws `error` unless the solver answered `no route` (the budget ran out before any path). */
function rethrowUnlessNoRoute(error: unknown): void {
  if (!(error instanceof SolverError && error.kind === 'no route')) throw error
}

const rows: Row[] = []
const benchOptions = { time: TIME_MS, iterations: 20, warmupTime: 200, warmupIterations: 5, retainSamples: false }
for (const [size, families] of SIZES.flatMap((size) => FAMILIES.map((f) => [size, f] as const))) {
  // Names carry the families when the market has them all.
  const label = `${size}${families === 'all' ? ' all-families' : ''} pools`
  // One solver per backend, each on its own copy of the market (upsertBatch advances a market, so
  // both start from the same state).
  const sides: Side[] = []
  for (const backend of BACKENDS) {
    const market = createSyntheticMarket({ pools: size, seed: SEED, families })
    const solver: Solver = await loadSolver({ nativeToken: market.nativeToken }, { backend })
    const t0 = performance.now()
    await solver.upsertPools(market.pools)
    console.error(`${backend} ${label}: initial upsert ${(performance.now() - t0).toFixed(1)} ms`)
    const requests = QUOTE_CASES.map(({ hops, split }) => {
      const request = market.quoteRequest(hops, { splitEnabled: split, gasPriceWei: '10000000' })
      return { name: `${backend} ${label} ${hops}-hop ${split ? 'split' : 'no-split'}`, request }
    })
    sides.push({ backend, market, solver, requests })
  }

  // Record how each quote case converges before timing it (the default 50 ms budget applies).
  // The first WASM quote also compiles the module's hot code (about 300 ms, budget-stopped), so
  // each case is quoted once to warm up and recorded on the second call.
  const stoppedBy = new Map<string, string>()
  const refused = new Map<string, number>()
  // A quote the budget cut before it found any path (a stall on a loaded machine) is timed and
  // counted, not a reason to stop the run.
  const quoteCounted = (solver: Solver, name: string, request: SolverQuoteRequest) =>
    solver.quoteJson(request).catch((error: unknown) => {
      rethrowUnlessNoRoute(error)
      refused.set(name, (refused.get(name) ?? 0) + 1)
    })
  for (const { solver, requests } of sides) {
    for (const { name, request } of requests) {
      // A warm-up the budget cut before any path (a stall on a loaded machine) is no reason to stop.
      await solver.quote(request).catch(rethrowUnlessNoRoute)
      const plan = await solver.quote(request)
      stoppedBy.set(name, plan.metadata.stoppedBy)
      console.error(`${name}: ${plan.routes.length} routes, ${plan.metadata.candidatePaths} candidate paths, ${plan.metadata.stoppedBy}`)
    }
  }
  // Quotes: each case on every backend back to back, so the backends are compared within seconds
  // (this VM's speed drifts over minutes). Every timed quote asks a fresh amount (a wei more than
  // the last), so none is answered by the solver's per-trade bound memo (the pair's convex graph
  // is: a new amount of a pair quoted before on the block, bench/freshTrade.ts).
  const quotes = new Bench(benchOptions)
  QUOTE_CASES.forEach((_, k) => {
    for (const { solver, requests } of sides) {
      const { name, request } = requests[k] as (typeof requests)[number]
      let asked = 0
      quotes.add(name, () => quoteCounted(solver, name, freshTrade(request, ++asked)))
    }
  })
  await quotes.run()
  // This VM's speed drifts within seconds, so a 1.5 s task per backend can land in different
  // phases. The WASM/native ratio is also measured with the two backends alternating quote by
  // quote (printed, not a row): that ratio is the one to compare with the 2.5× target.
  if (sides.length === 2) {
    const [a, b] = sides as [Side, Side]
    for (let k = 0; k < QUOTE_CASES.length; k++) {
      const [ra, rb] = [a.requests[k], b.requests[k]] as [Side['requests'][number], Side['requests'][number]]
      const ta: number[] = []
      const tb: number[] = []
      for (let round = 0; round < ALTERNATING_ROUNDS; round++) {
        const [qa, qb] = [freshTrade(ra.request, round + 1), freshTrade(rb.request, round + 1)]
        let t = performance.now()
        await quoteCounted(a.solver, ra.name, qa)
        ta.push(performance.now() - t)
        t = performance.now()
        await quoteCounted(b.solver, rb.name, qb)
        tb.push(performance.now() - t)
      }
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1] as number
      console.log(
        `alternating ${label} ${ra.name.split(' pools ')[1]}: ${a.backend} ${median(ta).toFixed(3)} ms, ${b.backend} ${median(tb).toFixed(3)} ms, ratio ${(median(tb) / median(ta)).toFixed(2)}`,
      )
    }
  }
  // Upserts get benches of their own, run after the quotes: tinybench warms every task of a bench
  // up before timing any, and each upsert moves the market on, so sharing one bench would time
  // the quotes on a market the upserts' warm-up had already moved (by a varying amount).
  const upserts = new Bench(benchOptions)
  for (const { backend, market, solver } of sides) {
    // The generation of the batch is not timed: only the solver's upsert is.
    upserts.add(`${backend} ${label} upsert 1%`, async () => {
      const batch = market.upsertBatch(1)
      const start = upserts.now()
      await solver.upsertPools(batch)
      return { overriddenDuration: upserts.now() - start }
    })
  }
  await upserts.run()

  for (const { backend, solver } of sides) {
    for (const task of [...quotes.tasks, ...upserts.tasks].filter((t) => t.name.startsWith(`${backend} `))) {
      const quoteCase = QUOTE_CASES.find((c) => task.name.endsWith(`${c.hops}-hop ${c.split ? 'split' : 'no-split'}`))
      rows.push(
        quoteCase
          ? {
              case: 'quote',
              backend,
              pools: size,
              families,
              hops: quoteCase.hops,
              split: quoteCase.split,
              ...stats(task),
              stopped_by: stoppedBy.get(task.name),
              ...(refused.has(task.name) ? { refused: refused.get(task.name) } : {}),
            }
          : { case: 'upsert_1pct', backend, pools: size, families, hops: null, split: null, ...stats(task) },
      )
      console.error(`${task.name}: ${JSON.stringify(rows.at(-1))}`)
    }
    await solver.close()
  }
}

mkdirSync('bench/results', { recursive: true })
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model}), node ${process.version}`)
console.log('| case | backend | pools | families | hops | split | p50 ms | p99 ms | ops/s | samples | stopped by | refused |')
console.log('|---|---|---:|---|---:|---|---:|---:|---:|---:|---|---:|')
for (const r of rows) {
  console.log(
    `| ${r.case} | ${r.backend} | ${r.pools} | ${r.families} | ${r.hops ?? '–'} | ${r.split ?? '–'} | ${r.p50_ms} | ${r.p99_ms} | ${r.ops_per_s} | ${r.samples} | ${r.stopped_by ?? '–'} | ${r.refused ?? 0} |`,
  )
}
