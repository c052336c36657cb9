// Where a small WASM quote's time goes beside the native one: the same fresh trades (one wei more
// each) quoted round by round through the native addon, through the WASM worker (the binding), and
// straight on a WASM module in this thread, with the host clock real and then constant (what its
// readings cost), counting the module's clock readings per quote; and the crossing alone: one
// pool's swap simulated through the addon and through the worker (microseconds of work each), by
// wall clock round by round, then back to back on each thread's CPU clock (Linux's
// /proc/self/task/*/schedstat: the machine's load enters it far less than it enters the wall clock).
//
//   node --import tsx bench/wasmOverhead.bench.ts [--pools 100] [--hops 1] [--rounds 400] [--cpu-calls 20000]
//
// Prints medians in ms and the CPU per call in µs; writes nothing. After npm run build:native &&
// npm run build:wasm.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { loadSolver, type Solver } from '../bindings/index.ts'
import type { Address } from '../bindings/types.ts'
import { freshTrade } from './freshTrade.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '100' },
    hops: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '400' },
    'cpu-calls': { type: 'string', default: '20000' },
  },
})
const ROUNDS = Number(values.rounds)
const market = createSyntheticMarket({ pools: Number(values.pools), seed: 7, families: 'default' })
const request = market.quoteRequest(Number(values.hops) as 1 | 2 | 3, { splitEnabled: true, gasPriceWei: '10000000' })
const config = { nativeToken: market.nativeToken }

type WasmModule = { quote(request: string): string }
const { WasmSolver } = createRequire(import.meta.url)('../bindings/wasm/pkg/solver.js') as {
  WasmSolver: new (config: string) => WasmModule & { upsertPools(pools: string): string }
}
const inThread = new WasmSolver(JSON.stringify(config))
inThread.upsertPools(JSON.stringify(market.pools))
const native = await loadSolver(config, { backend: 'native' })
const worker = await loadSolver(config, { backend: 'wasm' })
await native.upsertPools(market.pools)
await worker.upsertPools(market.pools)

const hostNow = performance.now.bind(performance)
let readings = 0
/** Runs `quote` with the module's `performance.now()` replaced by `now` (it reads the global per call). */
const withClock = <T>(now: () => number, quote: () => T): T => {
  const global = performance as { now: () => number }
  global.now = now
  try {
    return quote()
  } finally {
    global.now = hostNow
  }
}
const timed = async (f: () => unknown) => {
  const start = hostNow()
  await f()
  return hostNow() - start
}

const samples: Record<string, number[]> = {
  'native, through the addon': [],
  'native, its solve (metadata.phaseMs)': [],
  'WASM, through the worker': [],
  'WASM module in this thread': [],
  'WASM module, constant clock': [],
  'native, one pool simulated through the addon': [],
  'WASM, one pool simulated through the worker': [],
  'request JSON.stringify': [],
  'plan JSON.parse': [],
  'clock readings per quote': [],
}
const add = (name: string, x: number) => (samples[name] as number[]).push(x)
const firstPool = market.pools[0] as (typeof market.pools)[number]
for (let round = -20; round < ROUNDS; round++) {
  const trade = (k: number) => freshTrade(request, 10 * (round + 21) + k)
  const swap = { poolId: firstPool.id, tokenIn: firstPool.tokens[0] as Address, amountIn: String(10_000 + round) }
  let phases: Record<string, number> = {}
  const times = {
    native: await timed(async () => {
      phases = JSON.parse(await native.quoteJson({ ...trade(1), timePhases: true })).metadata.phaseMs
    }),
    worker: await timed(() => worker.quoteJson(trade(2))),
    nativeSwap: await timed(() => native.simulate(swap)),
    workerSwap: await timed(() => worker.simulate(swap)),
    module: 0,
    constant: 0,
    stringify: 0,
    parse: 0,
  }
  let json = ''
  times.stringify = await timed(() => (json = JSON.stringify(trade(3))))
  let plan = ''
  readings = 0
  times.module = await timed(
    () =>
      (plan = withClock(
        () => (readings++, hostNow()),
        () => inThread.quote(json),
      )),
  )
  times.parse = await timed(() => JSON.parse(plan))
  const fixed = hostNow()
  times.constant = await timed(() =>
    withClock(
      () => fixed,
      () => inThread.quote(JSON.stringify(trade(4))),
    ),
  )
  if (round < 0) continue // warm-up
  add('native, through the addon', times.native)
  add(
    'native, its solve (metadata.phaseMs)',
    Object.values(phases).reduce((a, b) => a + b, 0),
  )
  add('WASM, through the worker', times.worker)
  add('native, one pool simulated through the addon', times.nativeSwap)
  add('WASM, one pool simulated through the worker', times.workerSwap)
  add('WASM module in this thread', times.module)
  add('WASM module, constant clock', times.constant)
  add('request JSON.stringify', times.stringify)
  add('plan JSON.parse', times.parse)
  add('clock readings per quote', readings)
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1] as number
console.log(`${values.pools} pools, ${values.hops}-hop split, ${ROUNDS} rounds (medians):`)
for (const [name, xs] of Object.entries(samples)) console.log(`  ${name}: ${median(xs).toFixed(4)}`)

/** Every thread of this process: its CPU time so far in ms (the main thread's id is the pid). */
const threadCpuMs = () =>
  new Map(
    readdirSync('/proc/self/task').map((tid) => [
      tid,
      Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6,
    ]),
  )
const CPU_CALLS = Number(values['cpu-calls'])
console.log(`one pool simulated ${CPU_CALLS} times back to back, µs per call:`)
for (const [name, solver] of [
  ['native', native],
  ['WASM', worker],
] as [string, Solver][]) {
  const swap = (k: number) =>
    solver.simulate({ poolId: firstPool.id, tokenIn: firstPool.tokens[0] as Address, amountIn: String(20_000 + k) })
  for (let k = 0; k < 300; k++) await swap(k)
  const before = threadCpuMs()
  const start = hostNow()
  for (let k = 0; k < CPU_CALLS; k++) await swap(k)
  const wallUs = ((hostNow() - start) * 1000) / CPU_CALLS
  const usByThread = [...threadCpuMs()].map(([tid, ms]) => [tid, ((ms - (before.get(tid) ?? 0)) * 1000) / CPU_CALLS] as const)
  const main = usByThread.find(([tid]) => tid === String(process.pid))?.[1] as number
  const others = usByThread.filter(([tid]) => tid !== String(process.pid)).map(([, us]) => us)
  const busiest = Math.max(...others)
  const rest = others.reduce((a, b) => a + b, 0) - busiest
  console.log(
    `  ${name}: wall ${wallUs.toFixed(1)}; on CPU: main thread ${main.toFixed(1)}, the busiest other (the solver's) ${busiest.toFixed(1)}, the rest ${rest.toFixed(1)}`,
  )
}
await native.close()
await worker.close()
