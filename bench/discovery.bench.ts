/**
 * Cold start of the market over a recorded set of about 5,000 pools: discovery from block 0 over
 * every deployment, every pool read at one block, the token checks, one upsert; then a restart on
 * the same SQLite store (only the blocks since the cursor scanned, verdicts kept). Wall time and RPC
 * calls by method, counted at the transport.
 *
 *   node --import tsx bench/discovery.bench.ts [--pools 5000] [--samples 3] [--out bench/results/discovery.json]
 *
 * The recorded set is the seeded 67-pool market grown with the seed's own helpers
 * (`bench/market/growSeededMarket.ts`: long-tail tokens on 12 venues each, all seven kinds), dumped
 * once with `anvil_dumpState` to `var/bench-discovery/` (keyed by the seed's key, the pool count and
 * the grower's source) and loaded by every later run. Seeding 5,000 pools takes a while (minutes).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { createPublicClient, custom, type Hex, hexToBytes, http, type PublicClient } from 'viem'
import { loadSolver } from '../bindings/index.ts'
import { type DevnetFile, devnetChainConfig } from '../src/chains/devnetChainConfig.ts'
import { compiledContractsPath } from '../src/devnet/compiledContractsPath.ts'
import type { DevnetDescription } from '../src/devnet/seed/DevnetDescription.ts'
import { seedStateKey } from '../src/devnet/seed/seedStateKey.ts'
import { startDevnet } from '../src/devnet/startDevnet.ts'
import { startSeededDevnet } from '../src/devnet/startSeededDevnet.ts'
import { createMarketState } from '../src/market/createMarketState.ts'
import { createSqliteMarketStore } from '../src/market/store/createSqliteMarketStore.ts'
import { growSeededMarket } from './market/growSeededMarket.ts'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '5000' },
    samples: { type: 'string', default: '3' },
    out: { type: 'string', default: 'bench/results/discovery.json' },
  },
})
const SEEDED_POOLS = 67
const POOLS_PER_TOKEN = 12
const extraTokens = Math.max(0, Math.ceil((Number(values.pools) - SEEDED_POOLS) / POOLS_PER_TOKEN))
const { root } = compiledContractsPath()

/** The recorded set: loaded when its key is current, else seeded and dumped. */
async function recordedSet(): Promise<{ statePath: string; description: DevnetDescription; pools: number }> {
  const dir = join(root, 'var', 'bench-discovery')
  const grower = readFileSync(join(root, 'bench', 'market', 'growSeededMarket.ts'))
  const key = createHash('sha256').update(seedStateKey({ seed: 8453 }).key).update(`${extraTokens}`).update(grower).digest('hex')
  const statePath = join(dir, `state-${extraTokens}.json`)
  const metaPath = join(dir, `state-${extraTokens}.meta.json`)
  if (existsSync(statePath) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'))
    if (meta.key === key) return { statePath, description: meta.description, pools: meta.pools }
  }
  const started = Date.now()
  console.error(`seeding the recorded set: 67 seeded pools + ${extraTokens} tokens × ${POOLS_PER_TOKEN} venues (minutes)…`)
  const devnet = await startSeededDevnet({})
  try {
    const { pools } = await growSeededMarket({ devnet, extraTokens })
    const dump = hexToBytes((await devnet.publicClient.request({ method: 'anvil_dumpState' as never, params: [] as never })) as Hex)
    mkdirSync(dir, { recursive: true })
    writeFileSync(statePath, dump[0] === 0x1f && dump[1] === 0x8b ? gunzipSync(dump) : dump)
    writeFileSync(metaPath, JSON.stringify({ key, description: devnet.market, pools: pools.length }))
    console.error(`recorded ${pools.length} pools in ${Math.round((Date.now() - started) / 1000)} s: ${statePath}`)
    return { statePath, description: devnet.market, pools: pools.length }
  } finally {
    await devnet.stop()
  }
}

type Row = { case: 'cold_start' | 'restart'; pools: number; discovered: number; in_solver: number; left_out: number; duration_ms: number; rpc_calls: number; rpc_by_method: Record<string, number> }

const { statePath, description, pools } = await recordedSet()
const devnet = await startDevnet({ loadStatePath: statePath })
const rows: Row[] = []
try {
  // Discovery only: every deployment from block 0, no configured pools.
  const base = devnetChainConfig({ file: { ...(description as unknown as DevnetFile), rpcUrl: devnet.anvil.url } })
  const chain = { ...base, opStack: false, pools: [], deployments: Object.fromEntries(Object.entries(base.deployments).map(([dex, d]) => [dex, { ...d, fromBlock: 0n }])) }
  for (let sample = 0; sample < Number(values.samples); sample++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-discovery-'))
    try {
      for (const kind of ['cold_start', 'restart'] as const) {
        const counts = new Map<string, number>()
        const inner = http(devnet.anvil.url, { timeout: 120_000, retryCount: 0 })({ chain: devnet.chain })
        const client = createPublicClient({
          chain: devnet.chain,
          transport: custom({ request: async (args: { method: string; params?: unknown }) => {
            counts.set(args.method, (counts.get(args.method) ?? 0) + 1)
            return inner.request(args as never)
          } }),
        }) as PublicClient
        const solver = await loadSolver({ nativeToken: chain.weth })
        const store = createSqliteMarketStore({ path: join(dir, 'market.sqlite'), chainId: chain.chainId })
        const market = createMarketState({ client, chain, solver, maxSnapshotAgeMs: 600_000, store, log: () => undefined })
        try {
          const started = performance.now()
          const report = await market.start()
          const durationMs = Math.round(performance.now() - started)
          const row: Row = {
            case: kind, pools, discovered: report.discovered.length, in_solver: report.upserted.length, left_out: market.skipped().length,
            duration_ms: durationMs, rpc_calls: [...counts.values()].reduce((a, b) => a + b, 0), rpc_by_method: Object.fromEntries([...counts].sort()),
          }
          rows.push(row)
          console.log(JSON.stringify(row), `loadavg_1m=${loadavg()[0].toFixed(2)}`)
        } finally {
          await market.stop()
          await solver.close()
          store.close()
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
} finally {
  await devnet.stop()
}
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
const cpu = cpus()
console.log(`machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), node ${process.version}; wrote ${values.out}`)
