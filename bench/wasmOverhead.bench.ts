// Where a small WASM quote's time goes beside the native one: the same fresh trades (one wei more
// each) quoted round by round through the native addon, through the WASM worker (the binding), and
// straight on a WASM module in this thread, with the host clock real and then constant (what its
// readings cost), counting the module's clock readings per quote; and the crossing alone: one
// pool's swap simulated through the addon and through the worker (microseconds of work each).
//
//   node --import tsx bench/wasmOverhead.bench.ts [--pools 100] [--hops 1] [--rounds 400]
//
// Prints medians in ms; writes nothing. After npm run build:native && npm run build:wasm.
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { loadSolver } from '../bindings/index.ts'
import type { Address } from '../bindings/types.ts'
import { freshTrade } from './freshTrade.ts'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '100' },
    hops: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '400' },
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
await native.close()
await worker.close()
