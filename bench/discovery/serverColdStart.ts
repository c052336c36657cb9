import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SYNTHETIC_CHAIN_ID, SYNTHETIC_FACTORY, SYNTHETIC_MULTICALL3, syntheticChain } from './syntheticChain.ts'

export type ServerColdStartParameters = {
  root: string
  pools: number
  ranges: number
  /** Blocks per `eth_getLogs` at most: the stand-in's cap and the server's `MAX_LOG_BLOCK_RANGE`. */
  maxLogRange: number
  /** Every this many `eth_getLogs` the stand-in answers 429 with Retry-After: 1 (0: never). */
  throttleEvery: number
  /** The server's `DISCOVERY_MAX_IN_FLIGHT` and `DISCOVERY_CALLS_PER_SECOND`. */
  maxInFlight: number
  callsPerSecond: number
  /** Every wait ends by then: the run fails rather than hangs. */
  timeoutSec: number
}

export type ServerColdStartRow = {
  case: 'server_cold_start' | 'server_restart'
  pools: number
  blocks: number
  ranges_fetched: number
  pools_found: number
  first_health_ms: number
  ready_ms: number
  server_peak_rss_mb: number
  stand_in_peak_rss_mb: number
  rpc_calls: number
  rpc_by_method: Record<string, number>
  refused_ranges: number
  answered_429: number
}

const fetchJson = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) })
  return { status: res.status, body: (await res.json()) as any }
}

/** Spawns `args` and resolves with the child once a stdout/stderr line matches `ready`; rejects at `deadline` or when it exits. */
function spawnUntil(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }, ready: RegExp, deadline: number) {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const output = () => out
  const matched = new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${ready}" within the deadline:\n${out.slice(-2000)}`)), deadline - Date.now())
    const seen = (d: Buffer) => {
      out = (out + d).slice(-200_000)
      const m = out.match(ready)
      if (m) {
        clearTimeout(timer)
        resolve(m)
      }
    }
    child.stdout?.on('data', seen)
    child.stderr?.on('data', seen)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`exited (${code ?? signal}) before "${ready}":\n${out.slice(-2000)}`))
    })
  })
  return { child, matched, output }
}

/**
 * `npm start`'s server (`src/server.ts`, RPC_URL mode, a fresh MARKET_DB_PATH) cold-starting over
 * the synthetic chain's stand-in node (`syntheticChainRpc.ts`, a process of its own bounded to a
 * 256 MB heap), then started again on the same store (the restart resumes from its cursor). Timed
 * from each spawn: the first `/health` 200 and `/ready` 200; calls by method, refusals and 429s as
 * the stand-in counted them; peak memory (VmHWM) of the server when ready and of the stand-in.
 *
 * @example
 * const rows = await serverColdStart({ root, pools: 20_000, ranges: 100_000, maxLogRange: 2000, throttleEvery: 5000, maxInFlight: 8, callsPerSecond: 0, timeoutSec: 1800 })
 * // → [{ case: 'server_cold_start', pools_found: 20000, ready_ms: …, … }, { case: 'server_restart', … }]
 */
export async function serverColdStart(p: ServerColdStartParameters): Promise<ServerColdStartRow[]> {
  const deadline = Date.now() + p.timeoutSec * 1000
  const blocks = BigInt(p.ranges) * BigInt(p.maxLogRange)
  const chain = syntheticChain({ pools: p.pools, blocks })
  const dir = mkdtempSync(join(tmpdir(), 'bench-discovery-server-'))
  const children: ChildProcess[] = []
  try {
    const standIn = spawnUntil(
      [
        '--max-old-space-size=256',
        '--import',
        'tsx',
        'bench/discovery/syntheticChainRpc.ts',
        ...['--pools', String(p.pools), '--blocks', String(blocks), '--max-log-range', String(p.maxLogRange)],
        ...['--throttle-every', String(p.throttleEvery), '--retry-after-sec', '1'],
      ],
      { cwd: p.root },
      /listening on (http:\/\/[\d.:]+)/,
      Math.min(deadline, Date.now() + 60_000),
    )
    children.push(standIn.child)
    const rpcUrl = (await standIn.matched)[1]
    writeFileSync(
      join(dir, 'chain.json'),
      JSON.stringify({
        name: 'synthetic',
        chainId: SYNTHETIC_CHAIN_ID,
        blockTimeSec: 2,
        weth: chain.tokens[0],
        multicall3: SYNTHETIC_MULTICALL3,
        deployments: { UNIV2: { source: SYNTHETIC_FACTORY, fromBlock: '0' } },
        pools: [],
        opStack: false,
      }),
    )
    const env = {
      ...process.env,
      RPC_URL: rpcUrl,
      ROUTER_ADDRESS: chain.tokens[0], // never called: the bench does not submit
      CHAIN_CONFIG: join(dir, 'chain.json'),
      MARKET_DB_PATH: join(dir, 'market.sqlite'),
      API_KEYS: 'bench-discovery-key-0123456789abcdef',
      API_KEYS_FILE: '',
      PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      MAX_LOG_BLOCK_RANGE: String(p.maxLogRange),
      DISCOVERY_MAX_IN_FLIGHT: String(p.maxInFlight),
      DISCOVERY_CALLS_PER_SECOND: String(p.callsPerSecond),
    }
    const rows: ServerColdStartRow[] = []
    let before = { calls: {} as Record<string, number>, refusedRanges: 0, throttled: 0 }
    for (const kind of ['server_cold_start', 'server_restart'] as const) {
      const started = performance.now()
      const server = spawnUntil(['--import', 'tsx', 'src/server.ts'], { cwd: p.root, env }, /listening on (http:\/\/[\d.:]+)/, deadline)
      children.push(server.child)
      const poll = async (what: string, check: () => Promise<boolean>) => {
        for (;;) {
          if (server.child.exitCode !== null) throw new Error(`the server exited before ${what}:\n${server.output().slice(-2000)}`)
          if (Date.now() > deadline) throw new Error(`no ${what} within ${p.timeoutSec} s:\n${server.output().slice(-2000)}`)
          if (await check().catch(() => false)) return Math.round(performance.now() - started)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }
      // Read once from the line that announced it: the kept output is only its last 200 KB.
      const url = (await server.matched)[1]
      const urlOf = () => url
      const healthMs = await poll('/health', async () => (await fetchJson(`${urlOf()}/health`)).status === 200)
      let lastShown = 0
      const readyMs = await poll('/ready', async () => {
        const ready = await fetchJson(`${urlOf()}/ready`)
        if (Date.now() - lastShown > 15_000) {
          lastShown = Date.now()
          console.error(`${kind}: ${JSON.stringify(ready.body.discovery ?? ready.body)}`)
        }
        return ready.status === 200
      })
      const serverPeakKb = Number(readFileSync(`/proc/${server.child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)?.[1])
      const ready = (await fetchJson(`${urlOf()}/ready`)).body as { discovery: { poolsFound: number; ranges: number } }
      const stats = (await fetchJson(`${rpcUrl}/stats`)).body
      const byMethod = Object.fromEntries(
        Object.entries(stats.calls as Record<string, number>).map(([m, n]) => [m, n - (before.calls[m] ?? 0)]),
      )
      rows.push({
        case: kind,
        pools: p.pools,
        blocks: Number(BigInt(stats.head) + 1n),
        ranges_fetched: ready.discovery.ranges,
        pools_found: ready.discovery.poolsFound,
        first_health_ms: healthMs,
        ready_ms: readyMs,
        server_peak_rss_mb: Math.round(serverPeakKb / 1024),
        stand_in_peak_rss_mb: stats.peakRssMb,
        rpc_calls: Object.values(byMethod).reduce((a, b) => a + b, 0),
        rpc_by_method: byMethod,
        refused_ranges: stats.refusedRanges - before.refusedRanges,
        answered_429: stats.throttled - before.throttled,
      })
      if (Object.keys(stats.unknown).length > 0) console.error(`the stand-in could not answer: ${JSON.stringify(stats.unknown)}`)
      before = stats
      server.child.kill('SIGTERM')
      await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(server.child.kill('SIGKILL')), 10_000)
        server.child.once('exit', () => resolve(clearTimeout(timer)))
      })
    }
    return rows
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}
