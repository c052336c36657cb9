/**
 * Market-state service on a real anvil: cold start to a warm snapshot, and the per-block refresh
 * when 1 % and 10 % of the pools change in one block.
 *
 *   node --import tsx bench/market.bench.ts [--markets seeded,grown] [--extra-tokens 20] [--samples 30] [--out bench/results/market.json]
 *
 * `seeded`: the seeded 67-pool market (startSeededDevnet). `grown`: the same market grown with the
 * seed's helpers by `--extra-tokens` long-tail tokens × 12 venues (20 → 307 pools). Cold start =
 * `createMarketState(...).start()` on a fresh solver: discovery from block 0, every pool read at one
 * block, one upsert. Refresh = `refresh()` after one block in which real swaps changed exactly N
 * pools (automine off, one `evm_mine`); the block is made outside the timed window. Algebra pools
 * with the dynamic-fee plugin are re-read every block whatever changed (`reread` column).
 */
import { writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { Bench, type Task } from 'tinybench'
import type { Address } from 'viem'
import { loadSolver } from '../bindings/index.ts'
import type { Solver } from '../bindings/types.ts'
import { BASE_BLOCK_TIME_SEC } from '../src/chains/base.ts'
import type { ChainConfig } from '../src/chains/ChainConfig.ts'
import { baseMarketTokens } from '../src/devnet/seed/baseMarketTokens.ts'
import type { SeededPool } from '../src/devnet/seed/DevnetDescription.ts'
import { createSeedPrng } from '../src/devnet/seed/createSeedPrng.ts'
import { type SeededDevnet, startSeededDevnet } from '../src/devnet/startSeededDevnet.ts'
import { createMarketState, type MarketState } from '../src/market/createMarketState.ts'
import { approveTraders, changePoolsInOneBlock } from './market/changePoolsInOneBlock.ts'
import { growSeededMarket } from './market/growSeededMarket.ts'

const { values } = parseArgs({
  options: {
    markets: { type: 'string', default: 'seeded,grown' },
    'extra-tokens': { type: 'string', default: '20' },
    samples: { type: 'string', default: '30' },
    'cold-samples': { type: 'string', default: '10' },
    out: { type: 'string', default: 'bench/results/market.json' },
    label: { type: 'string', default: '' },
  },
})
const SAMPLES = Number(values.samples)
const COLD_SAMPLES = Number(values['cold-samples'])
const WARMUP = 3

type Row = Record<string, string | number>
const rows: Row[] = []

function stats(task: Task): { p50_ms: number; p99_ms: number; mean_ms: number; min_ms: number; max_ms: number; samples: number } {
  const latency = task.result && 'latency' in task.result ? task.result.latency : undefined
  if (!latency) throw new Error(`${task.name}: no result (${JSON.stringify(task.result)})`)
  const r = (x: number) => Math.round(x * 100) / 100
  return {
    p50_ms: r(latency.p50),
    p99_ms: r(latency.p99),
    mean_ms: r(latency.mean),
    min_ms: r(latency.min),
    max_ms: r(latency.max),
    samples: latency.samples?.length ?? SAMPLES,
  }
}

function chainConfigOf(devnet: SeededDevnet): ChainConfig {
  const { market } = devnet
  const f = market.factories
  return {
    name: 'devnet',
    chainId: market.chainId,
    blockTimeSec: BASE_BLOCK_TIME_SEC,
    weth: market.weth,
    multicall3: market.multicall,
    deployments: {
      UNIV2: { source: f.UNIV2.factory, fromBlock: 0n },
      UNIV3: { source: f.UNIV3.factory, fromBlock: 0n },
      ALIEN_BASE_V3: { source: f.ALIEN_BASE_V3.factory, fromBlock: 0n },
      PANCAKE_V3: { source: f.PANCAKE_V3.factory, fromBlock: 0n },
      UNIV4: { source: f.UNIV4.poolManager, fromBlock: 0n },
      QUICKSWAP_V4: { source: f.QUICKSWAP_V4.factory, fromBlock: 0n },
      HYDREX: { source: f.HYDREX.factory, fromBlock: 0n },
    },
    pools: [],
  }
}

async function benchMarket(
  name: string,
  devnet: SeededDevnet,
  pools: SeededPool[],
  tokens: Parameters<typeof changePoolsInOneBlock>[0]['tokens'],
) {
  const chain = chainConfigOf(devnet)
  const client = devnet.publicClient
  // Fewer cold samples than refresh samples: each one reads the whole market.
  const bench = new Bench({ name, iterations: COLD_SAMPLES, time: 1, warmupIterations: 1, warmupTime: 1, retainSamples: true })

  // Cold start: a fresh solver each time (made outside the timed window), then start().
  let cold: { solver: Solver; market: MarketState } | undefined
  let inSolver = 0
  bench.add(
    `${name}: cold start`,
    async () => {
      const t0 = bench.now()
      const report = await cold!.market.start()
      const overriddenDuration = bench.now() - t0
      inSolver = report.upserted.length
      return { overriddenDuration }
    },
    {
      beforeEach: async () => {
        const solver = await loadSolver({ nativeToken: devnet.market.weth })
        cold = { solver, market: createMarketState({ client, chain, solver, maxSnapshotAgeMs: 60_000, log: () => undefined }) }
      },
      afterEach: async () => {
        await cold?.market.stop()
        await cold?.solver.close()
        cold = undefined
      },
    },
  )
  console.error(`${name}: ${pools.length} pools, cold start ×${COLD_SAMPLES}`)
  await bench.run()
  rows.push({ case: 'cold_start', market: name, pools: pools.length, in_solver: inSolver, ...stats(bench.tasks[0]) })

  // Refresh: one warm market, one block of real swaps per sample.
  const solver = await loadSolver({ nativeToken: devnet.market.weth })
  const market = createMarketState({ client, chain, solver, maxSnapshotAgeMs: 60_000, log: () => undefined })
  await market.start()
  await approveTraders({ devnet, tokens })
  await market.refresh()
  const pick = createSeedPrng({ seed: 7 })
  for (const pct of [1, 10]) {
    const changed = Math.max(1, Math.round((pools.length * pct) / 100))
    const refreshBench = new Bench({ name, iterations: SAMPLES, time: 1, warmupIterations: WARMUP, warmupTime: 1, retainSamples: true })
    let round = 0
    let reread = 0
    refreshBench.add(`${name}: refresh, ${pct}% changed`, async () => {
      // Untimed: choose the pools and mine the block that changes them.
      const shuffled = pools
        .map((p) => ({ p, k: pick() }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.p)
      const chosen = shuffled.slice(0, changed)
      await changePoolsInOneBlock({ devnet, pools: chosen, tokens, round: round++ })
      const t0 = refreshBench.now()
      const report = await market.refresh()
      const overriddenDuration = refreshBench.now() - t0
      const expected = chosen.map((p) => p.address.toLowerCase()).sort()
      if (JSON.stringify(report.changed) !== JSON.stringify(expected)) {
        throw new Error(`refresh saw ${report.changed.length} changed pools, expected ${expected.length}`)
      }
      if (report.toBlock !== report.fromBlock) throw new Error('the changes spanned more than one block')
      reread = report.reread.length
      return { overriddenDuration }
    })
    console.error(`${name}: refresh with ${changed} changed ×${SAMPLES}`)
    await refreshBench.run()
    rows.push({ case: 'refresh', market: name, pools: pools.length, changed_pct: pct, changed, reread, ...stats(refreshBench.tasks[0]) })
  }
  await market.stop()
  await solver.close()
}

const markets = values.markets.split(',')
const devnet = await startSeededDevnet({})
try {
  const tokens = Object.fromEntries(
    baseMarketTokens.map((token) => [token.symbol, { address: devnet.market.tokens[token.symbol].address as Address, token }]),
  )
  if (markets.includes('seeded')) await benchMarket('seeded', devnet, devnet.market.pools, tokens)
  if (markets.includes('grown')) {
    const grown = await growSeededMarket({ devnet, extraTokens: Number(values['extra-tokens']) })
    console.error(`grown market: ${grown.pools.length} pools in ${grown.durationMs} ms`)
    await benchMarket('grown', devnet, grown.pools, grown.tokens)
  }
} finally {
  await devnet.stop()
}

const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`
const labelled = values.label ? rows.map((r) => ({ ...r, variant: values.label })) : rows
writeFileSync(values.out, `${JSON.stringify(labelled, null, 2)}\n`)
console.log(`machine: ${machine}`)
console.log('| case | market | pools | changed | re-read | p50 ms | p99 ms | mean ms | samples |')
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) {
  const changed = r.case === 'refresh' ? `${r.changed} (${r.changed_pct} %)` : '–'
  const reread = r.case === 'refresh' ? r.reread : r.in_solver
  console.log(`| ${r.case} | ${r.market} | ${r.pools} | ${changed} | ${reread} | ${r.p50_ms} | ${r.p99_ms} | ${r.mean_ms} | ${r.samples} |`)
}
console.log(`wrote ${values.out}`)
