// Solver latency: quotes (1-, 2-, 3-hop with splits, 2-hop without) and a 1% upsert, on synthetic
// markets of 100, 1,000 and 10,000 mixed pools, native addon and WASM worker.
//
//   npm run bench:solver                      (after npm run build:native && npm run build:wasm)
//   node --import tsx bench/solver.bench.ts --time 1500 --pools 100,1000,10000 --backends native,wasm
//
// Writes bench/results/solver.json: one flat row per case.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { Bench, type Task } from 'tinybench'
import { loadSolver, type Solver } from '../bindings/index.ts'
import type { SolverQuoteRequest } from '../bindings/types.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'

const { values } = parseArgs({
  options: {
    time: { type: 'string', default: '1500' },
    pools: { type: 'string', default: '100,1000,10000' },
    backends: { type: 'string', default: 'native,wasm' },
    out: { type: 'string', default: 'bench/results/solver.json' },
    seed: { type: 'string', default: '7' },
  },
})
const TIME_MS = Number(values.time)
const SIZES = values.pools.split(',').map(Number)
const BACKENDS = values.backends.split(',') as ('native' | 'wasm')[]
const SEED = Number(values.seed)

type Row = {
  case: 'quote' | 'upsert_1pct'
  backend: 'native' | 'wasm'
  pools: number
  hops: number | null
  split: boolean | null
  p50_ms: number
  p99_ms: number
  ops_per_s: number
  samples: number
  /** Quotes only: how the optimizer stopped on the first run (`budget` means the 50 ms default bit). */
  stopped_by?: string
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

const rows: Row[] = []
for (const size of SIZES) {
  for (const backend of BACKENDS) {
    // A fresh market per backend: upsertBatch advances the market, so both start from the same state.
    const market = createSyntheticMarket({ pools: size, seed: SEED })
    const solver: Solver = await loadSolver({ nativeToken: market.nativeToken }, { backend })
    const t0 = performance.now()
    await solver.upsertPools(market.pools)
    console.error(`${backend} ${size} pools: initial upsert ${(performance.now() - t0).toFixed(1)} ms`)

    const bench = new Bench({ time: TIME_MS, iterations: 20, warmupTime: 200, warmupIterations: 5, retainSamples: false })
    const requests = new Map<string, SolverQuoteRequest>()
    for (const { hops, split } of QUOTE_CASES) {
      const trade = market.trade(hops)
      const request: SolverQuoteRequest = {
        tokenIn: trade.tokenIn,
        tokenOut: trade.tokenOut,
        amountIn: trade.amountIn,
        slippageBps: 50,
        maxHops: hops,
        splitEnabled: split,
        gasPriceWei: '10000000',
      }
      const name = `${backend} ${size} pools ${hops}-hop ${split ? 'split' : 'no-split'}`
      requests.set(name, request)
      bench.add(name, async () => {
        await solver.quoteJson(request)
      })
    }
    // Upserts get a bench of their own, run after the quotes: tinybench warms every task of a
    // bench up before timing any, and each upsert moves the market on, so sharing one bench would
    // time the quotes on a market the upserts' warm-up had already moved (by a varying amount).
    const upserts = new Bench({ time: TIME_MS, iterations: 20, warmupTime: 200, warmupIterations: 5, retainSamples: false })
    // The generation of the batch is not timed: only the solver's upsert is.
    upserts.add(`${backend} ${size} pools upsert 1%`, async () => {
      const batch = market.upsertBatch(1)
      const start = upserts.now()
      await solver.upsertPools(batch)
      return { overriddenDuration: upserts.now() - start }
    })

    // Record how each quote case converges before timing it (the default 50 ms budget applies).
    // The first WASM quote also compiles the module's hot code (about 300 ms, budget-stopped), so
    // each case is quoted once to warm up and recorded on the second call.
    const stoppedBy = new Map<string, string>()
    for (const [name, request] of requests) {
      await solver.quote(request)
      const plan = await solver.quote(request)
      stoppedBy.set(name, plan.metadata.stoppedBy)
      console.error(`${name}: ${plan.routes.length} routes, ${plan.metadata.candidatePaths} candidate paths, ${plan.metadata.stoppedBy}`)
    }
    await bench.run()
    await upserts.run()
    for (const task of [...bench.tasks, ...upserts.tasks]) {
      const quoteCase = QUOTE_CASES.find((c) => task.name.endsWith(`${c.hops}-hop ${c.split ? 'split' : 'no-split'}`))
      rows.push(
        quoteCase
          ? { case: 'quote', backend, pools: size, hops: quoteCase.hops, split: quoteCase.split, ...stats(task), stopped_by: stoppedBy.get(task.name) }
          : { case: 'upsert_1pct', backend, pools: size, hops: null, split: null, ...stats(task) },
      )
      console.error(`${task.name}: ${JSON.stringify(rows.at(-1))}`)
    }
    await solver.close()
  }
}

mkdirSync('bench/results', { recursive: true })
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model}), node ${process.version}`)
console.log('| case | backend | pools | hops | split | p50 ms | p99 ms | ops/s | samples | stopped by |')
console.log('|---|---|---:|---:|---|---:|---:|---:|---:|---|')
for (const r of rows) {
  console.log(`| ${r.case} | ${r.backend} | ${r.pools} | ${r.hops ?? '–'} | ${r.split ?? '–'} | ${r.p50_ms} | ${r.p99_ms} | ${r.ops_per_s} | ${r.samples} | ${r.stopped_by ?? '–'} |`)
}
