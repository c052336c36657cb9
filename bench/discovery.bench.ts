/**
 * Cold start of the market over a recorded set of about 5,000 pools: discovery from block 0 over
 * every deployment, every pool read at one block, the token checks, one upsert; then a restart on
 * the same SQLite store (only the blocks since the cursor scanned, verdicts kept). Wall time and RPC
 * calls by method, counted at the transport.
 *
 *   node --import tsx bench/discovery.bench.ts [--set pairs|grown] [--pools 5000] [--samples 3] [--out bench/results/discovery.json]
 *   node --import tsx bench/discovery.bench.ts --server [--pools 20000] [--ranges 100000] [--max-log-range 2000] [--throttle-every 5000] [--in-flight 8] [--calls-per-second 0] [--timeout-sec 1800] [--out bench/results/discovery-server.json]
 *
 * `--server` runs `npm start`'s own server (`src/server.ts`, RPC_URL mode, a fresh MARKET_DB_PATH)
 * against a stand-in node serving a generated market of `--pools` Uniswap V2 pairs over
 * `--ranges` × `--max-log-range` blocks (`bench/discovery/syntheticChainRpc.ts`, a process of its
 * own with a 256 MB heap: the wire format of a node, its range cap, a 429 with Retry-After every
 * `--throttle-every` `eth_getLogs`; anvil needed over 19 GB for 20,000 pools), then again on the
 * same store (the restart). Base's history is 90,000 to 170,000 ranges of 2,000 blocks. Timed from
 * the spawn: the first `/health` 200 and `/ready` 200 (the cold start done); calls by method as the
 * stand-in counted them; peak memory (VmHWM) of both processes. Every wait ends by `--timeout-sec`.
 *
 * The recorded sets, seeded once and dumped (`anvil_dumpState`) to `var/bench-discovery/` (keyed by
 * the seeding code), then loaded by every later run:
 * - `pairs` (default): `--pools` Uniswap V2 pairs among ~100 test tokens, funded, sent in batches
 *   (`bench/discovery/seedPairSet.ts`: about a minute for 5,000);
 * - `grown`: the seeded 67-pool market grown with the seed's own helpers
 *   (`bench/market/growSeededMarket.ts`: long-tail tokens on 12 venues each, all seven kinds), one
 *   transaction per block: about 3 blocks a second on a busy machine, so hours for 5,000; use it
 *   for a few hundred pools, where it shows the read cost of the concentrated kinds.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { createPublicClient, custom, hexToBytes, http, type PublicClient } from 'viem'
import { loadSolver } from '../bindings/index.ts'
import type { ChainConfig } from '../src/chains/ChainConfig.ts'
import { scannedFrom } from '../src/chains/chainDeployments.ts'
import { type DevnetFile, devnetChainConfig } from '../src/chains/devnetChainConfig.ts'
import { compiledContractsPath } from '../src/artifacts/compiledContractsPath.ts'
import { seedStateKey } from '../src/devnet/seed/seedStateKey.ts'
import { type Devnet, startDevnet } from '../src/devnet/startDevnet.ts'
import { startSeededDevnet } from '../src/devnet/startSeededDevnet.ts'
import { createMarketState } from '../src/market/createMarketState.ts'
import { createSqliteMarketStore } from '../src/market/store/createSqliteMarketStore.ts'
import { seedPairSet } from './discovery/seedPairSet.ts'
import { serverColdStart } from './discovery/serverColdStart.ts'
import { growSeededMarket } from './market/growSeededMarket.ts'

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'pairs' },
    // Default 5,000 (20,000 with --server).
    pools: { type: 'string' },
    samples: { type: 'string', default: '3' },
    server: { type: 'boolean', default: false },
    ranges: { type: 'string', default: '100000' },
    'max-log-range': { type: 'string', default: '2000' },
    'throttle-every': { type: 'string', default: '5000' },
    'in-flight': { type: 'string', default: '8' },
    'calls-per-second': { type: 'string', default: '0' },
    'timeout-sec': { type: 'string', default: '1800' },
    out: { type: 'string', default: 'bench/results/discovery.json' },
  },
})
const set = values.set as 'pairs' | 'grown'
const wanted = Number(values.pools ?? (values.server ? 20_000 : 5000))
const { root } = compiledContractsPath()

/** The set's chain config as JSON (block numbers as strings). */
const toJson = (chain: ChainConfig) => JSON.parse(JSON.stringify(chain, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))
const fromJson = (chain: any): ChainConfig => ({
  ...chain,
  deployments: Object.fromEntries(
    Object.entries(chain.deployments).map(([dex, d]: [string, any]) => [
      dex,
      (Array.isArray(d) ? d : [d]).map((one: any) => ({ ...one, fromBlock: BigInt(one.fromBlock) })),
    ]),
  ),
})

/** anvil answers a big state (tens of MB) beyond viem's response limit: asked with a plain fetch. */
async function dumpState(devnet: Devnet, path: string): Promise<void> {
  const res = await fetch(devnet.anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
  })
  const { result } = (await res.json()) as { result: `0x${string}` }
  const bytes = hexToBytes(result)
  writeFileSync(path, bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes)
}

/** The recorded set: loaded when its key is current, else seeded and dumped. */
async function recordedSet(): Promise<{ statePath: string; chain: ChainConfig; pools: number }> {
  const dir = join(root, 'var', 'bench-discovery')
  const seeder = readFileSync(join(root, 'bench', set === 'pairs' ? 'discovery/seedPairSet.ts' : 'market/growSeededMarket.ts'))
  const key = createHash('sha256')
    .update(seedStateKey({ seed: 8453 }).key)
    .update(`${set} ${wanted}`)
    .update(seeder)
    .digest('hex')
  const statePath = join(dir, `${set}-${wanted}.json`)
  const metaPath = join(dir, `${set}-${wanted}.meta.json`)
  if (existsSync(statePath) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'))
    if (meta.key === key) return { statePath, chain: fromJson(meta.chain), pools: meta.pools }
  }
  const started = Date.now()
  console.error(`seeding the recorded set (${set}, ${wanted} pools)…`)
  mkdirSync(dir, { recursive: true })
  let devnet: Devnet | undefined
  try {
    let chain: ChainConfig
    let pools: number
    if (set === 'pairs') {
      devnet = await startDevnet({})
      ;({ chain, pools } = await seedPairSet({ devnet, pools: wanted }))
    } else {
      const seeded = await startSeededDevnet({})
      devnet = seeded
      const extraTokens = Math.max(0, Math.ceil((wanted - seeded.market.pools.length) / 12))
      pools = (await growSeededMarket({ devnet: seeded, extraTokens })).pools.length
      const base = devnetChainConfig({ file: seeded.market as unknown as DevnetFile })
      chain = {
        ...base,
        opStack: false,
        pools: [],
        deployments: scannedFrom(base.deployments, 0n),
      }
    }
    await dumpState(devnet, statePath)
    writeFileSync(metaPath, JSON.stringify({ key, chain: toJson(chain), pools }))
    console.error(`recorded ${pools} pools in ${Math.round((Date.now() - started) / 1000)} s: ${statePath}`)
    return { statePath, chain, pools }
  } finally {
    await devnet?.stop()
  }
}

type Row = {
  case: 'cold_start' | 'restart'
  set: string
  pools: number
  discovered: number
  in_solver: number
  left_out: number
  duration_ms: number
  rpc_calls: number
  rpc_by_method: Record<string, number>
}

if (values.server) {
  const rows = await serverColdStart({
    root,
    pools: wanted,
    ranges: Number(values.ranges),
    maxLogRange: Number(values['max-log-range']),
    throttleEvery: Number(values['throttle-every']),
    maxInFlight: Number(values['in-flight']),
    callsPerSecond: Number(values['calls-per-second']),
    timeoutSec: Number(values['timeout-sec']),
  })
  for (const row of rows) console.log(JSON.stringify(row), `loadavg_1m=${loadavg()[0].toFixed(2)}`)
  const out = values.out === 'bench/results/discovery.json' ? 'bench/results/discovery-server.json' : values.out
  writeFileSync(out, `${JSON.stringify(rows, null, 2)}\n`)
  const cpu = cpus()
  console.log(`machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), node ${process.version}; wrote ${out}`)
  process.exit(0)
}
const { statePath, chain, pools } = await recordedSet()
const devnet = await startDevnet({ loadStatePath: statePath })
const rows: Row[] = []
try {
  // Discovery only: every deployment from block 0, no configured pools.
  for (let sample = 0; sample < Number(values.samples); sample++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-discovery-'))
    try {
      for (const kind of ['cold_start', 'restart'] as const) {
        const counts = new Map<string, number>()
        const inner = http(devnet.anvil.url, { timeout: 120_000, retryCount: 0 })({ chain: devnet.chain })
        const client = createPublicClient({
          chain: devnet.chain,
          transport: custom({
            request: async (args: { method: string; params?: unknown }) => {
              counts.set(args.method, (counts.get(args.method) ?? 0) + 1)
              return inner.request(args as never)
            },
          }),
        }) as PublicClient
        const solver = await loadSolver({ nativeToken: chain.weth })
        const store = createSqliteMarketStore({ path: join(dir, 'market.sqlite'), chainId: chain.chainId })
        const market = createMarketState({ client, chain, solver, maxSnapshotAgeMs: 600_000, store, log: () => undefined })
        try {
          const started = performance.now()
          const report = await market.start()
          const durationMs = Math.round(performance.now() - started)
          const row: Row = {
            case: kind,
            set,
            pools,
            discovered: report.discovered.length,
            in_solver: report.upserted.length,
            left_out: market.skipped().length,
            duration_ms: durationMs,
            rpc_calls: [...counts.values()].reduce((a, b) => a + b, 0),
            rpc_by_method: Object.fromEntries([...counts].sort()),
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
