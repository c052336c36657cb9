// Overshoot of `timeBudgetMs` through the WASM module, the same figures as
// solver-rs/examples/budget_overshoot.rs gives natively: for each number of hops and each budget,
// every dumped trade of that many hops quoted `--iterations` times on a WASM module in this thread
// (no worker: the crossing is not the solver's), the i-th time at amountIn + i + 1 wei (no memo of
// an earlier quote's bound answers it), and p50, p99 and the largest of (quote time − budget), with
// and without the time this thread waited for a CPU (Linux's /proc/thread-self/schedstat: on a
// shared machine a thread preempted past its deadline overshoots by the wait, which no deadline
// check can shorten). Also the module's clock readings per quote (`performance.now()`). Before the
// timed quotes of a trade and budget: one quote at 10 s (its gas pricer cached, its graph lent),
// then 20 at the budget, untimed.
//
//   node --import tsx bench/dumpSyntheticMarket.ts --pools 10000 --sizes 100 --out /tmp/market-10000-100x.json
//   node --import tsx bench/wasmBudgetOvershoot.bench.ts --market /tmp/market-10000-100x.json [--iterations 200] [--budgets 1,5,50] [--hops 1,2,3]
//
// After npm run build:wasm. Prints; writes nothing.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import type { SolverQuoteRequest } from '../bindings/types.ts'
import { freshTrade } from './freshTrade.ts'

const { values } = parseArgs({
  options: {
    market: { type: 'string' },
    iterations: { type: 'string', default: '200' },
    budgets: { type: 'string', default: '1,5,50' },
    hops: { type: 'string', default: '1,2,3' },
  },
})
if (!values.market) throw new Error('--market <dump of bench/dumpSyntheticMarket.ts> is required')
const dump = JSON.parse(readFileSync(values.market, 'utf8')) as {
  config: object
  pools: object[]
  requests: SolverQuoteRequest[]
}
type WasmModule = { quote(request: string): string; upsertPools(pools: string): string }
const { WasmSolver } = createRequire(import.meta.url)('../bindings/wasm/pkg/solver.js') as {
  WasmSolver: new (config: string) => WasmModule
}
const solver = new WasmSolver(JSON.stringify(dump.config))
solver.upsertPools(JSON.stringify(dump.pools))
// The module holds the market now: 10,000 pools' objects left in this thread's heap would make
// V8's major collections, which pause this thread mid-quote, tens of ms long.
const poolCount = dump.pools.length
dump.pools = []

/** The module's answer to `request`: its plan (JSON) or its error's code. */
const ask = (request: string): { plan?: string; error?: string } => {
  try {
    return { plan: solver.quote(request) }
  } catch (error) {
    return { error: `error: ${(error as { code?: string }).code ?? error}` }
  }
}
/** Where an answer ended: its plan's `stoppedIn` ('converged' if none), or its error. */
const endOf = (answer: { plan?: string; error?: string }): string =>
  answer.plan === undefined
    ? (answer.error as string)
    : ((JSON.parse(answer.plan) as { metadata: { stoppedIn?: string } }).metadata.stoppedIn ?? 'converged')

/** The time this thread has waited on a run queue, in ms; undefined off Linux. */
const waitedMs = (): number | undefined => {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6
  } catch {
    return undefined
  }
}
const hostNow = performance.now.bind(performance)
let readings = 0
const countingNow = () => (readings++, hostNow())

/** p50, p99 and the largest of `xs`, formatted. */
const quantiles = (xs: number[]) => {
  xs.sort((a, b) => a - b)
  const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * q))] as number
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`
  return `p50 ${signed(at(0.5))} ms, p99 ${signed(at(0.99))} ms, max ${signed(xs[xs.length - 1] as number)} ms`
}

const iterations = Number(values.iterations)
/** Untimed quotes at each budget before the timed ones. */
const WARM_UP = 20
for (const hops of values.hops.split(',').map(Number)) {
  const requests = dump.requests.filter((r) => r.maxHops === hops)
  if (requests.length === 0) throw new Error(`no ${hops}-hop request in ${values.market}`)
  console.log(`${poolCount} pools, ${requests.length} trade(s) of ${hops} hops, ${iterations} quotes each per budget`)
  for (const budget of values.budgets.split(',').map(Number)) {
    const overshoot: number[] = []
    const unwaited: number[] = []
    const perQuote: number[] = []
    const ended: Record<string, number> = {}
    for (const request of requests) {
      // Untimed: one quote with time to finish (the pair's gas pricer cached, its graph lent, as
      // in a service that has quoted the pair before), then fresh ones at the budget while V8
      // tiers the module's hot functions up.
      ask(JSON.stringify({ ...request, timeBudgetMs: 10_000 }))
      for (let i = 0; i < WARM_UP; i++) ask(JSON.stringify({ ...freshTrade(request, iterations + 1 + i), timeBudgetMs: budget }))
      for (let i = 0; i < iterations; i++) {
        const json = JSON.stringify({ ...freshTrade(request, i + 1), timeBudgetMs: budget })
        readings = 0
        performance.now = countingNow
        const waited = waitedMs()
        const start = hostNow()
        const answer = ask(json)
        const elapsed = hostNow() - start
        const after = waitedMs()
        performance.now = hostNow
        overshoot.push(elapsed - budget)
        if (waited !== undefined && after !== undefined) unwaited.push(elapsed - (after - waited) - budget)
        perQuote.push(readings)
        const how = endOf(answer)
        ended[how] = (ended[how] ?? 0) + 1
      }
    }
    console.log(`${hops} hops, budget ${budget} ms: quote time − budget ${quantiles(overshoot)}; ended ${JSON.stringify(ended)}`)
    if (unwaited.length > 0) console.log(`${hops} hops, budget ${budget} ms: the same without the waits for a CPU ${quantiles(unwaited)}`)
    perQuote.sort((a, b) => a - b)
    console.log(`${hops} hops, budget ${budget} ms: clock readings per quote, median ${perQuote[perQuote.length >> 1]}`)
  }
}
