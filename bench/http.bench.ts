/**
 * The HTTP service under load over loopback, `POST /quote` and `POST /submit`: at fixed rates with
 * an open-loop constant-rate generator (`bench/http/constantRateLoad.ts`; autocannon's `-R` sends
 * each second's requests in a burst) and at saturation with autocannon.
 *
 *   node --import tsx bench/http.bench.ts [--cases embedded,memory,redis,redis-2] [--routes quote,submit]
 *     [--rates 50,200,500,max] [--duration 10] [--connections 16] [--out bench/results/http.json]
 *
 * Cases (bench/README.md):
 * - `embedded`: the service in this process exactly as `npm start` wires it (embedded seeded chain,
 *   native solver, market polling, in-memory limiter and quote store, the prop AMM keeper re-pricing
 *   every 2 s: a block every 2 s, each re-read by the market and applied to the solver), with the
 *   event-loop delay of the service measured during each run;
 * - `memory`, `redis`, `redis-2`: instances in their own processes (`src/server.ts`) following the
 *   embedded chain through `RPC_URL`: one instance with the in-memory state, one with `REDIS_URL`
 *   (a real redis-server), two with the same Redis behind a round-robin generator.
 * Every service runs with `RATE_LIMIT_PER_MINUTE` 1e9 (the default 120/min would turn the run into
 * 429s) and `QUOTE_TTL_MS` 1 h (the `/submit` runs submit one quote made before them). The load
 * generators run as child processes. Request: 1 WETH → USDC, slippage 50 bps, default options.
 *
 * Beside each run's latencies, where the services' time per call went, from their metrics scraped
 * before and after it (`bench/http/solveShare.ts`, means over the run): the solver's own time per
 * quote (`solver_ms`), the quote service's solve (`solve_ms`), the call as the server timed it
 * (`server_ms`), and the service's overhead outside the solve (`overhead_ms`).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs, promisify } from 'node:util'
import { type RedisServer, startRedisServer } from '../test/fixtures/startRedisServer.ts'
import { type DevnetFile, devnetChainConfig } from '../src/chains/devnetChainConfig.ts'
import { loadConfig } from '../src/config/loadConfig.ts'
import { startSwapService } from '../src/startSwapService.ts'
import { type ServiceProcess, startServiceProcess } from './http/startServiceProcess.ts'
import { type SolveShare, solveShare } from './http/solveShare.ts'
import { deploymentsFile } from '../src/chains/chainDeployments.ts'

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: 'embedded,memory,redis,redis-2' },
    routes: { type: 'string', default: 'quote,submit' },
    rates: { type: 'string', default: '50,200,500,max' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    out: { type: 'string', default: 'bench/results/http.json' },
  },
})
const DURATION_SEC = Number(values.duration)
const CONNECTIONS = Number(values.connections)
const rates = values.rates.split(',').map((r) => (r === 'max' ? 'max' : Number(r))) as (number | 'max')[]
const cases = values.cases.split(',') as ('embedded' | 'memory' | 'redis' | 'redis-2')[]
const routes = values.routes.split(',') as ('quote' | 'submit')[]
const run = promisify(execFile)
const autocannonBin = join(import.meta.dirname, '..', 'node_modules', 'autocannon', 'autocannon.js')
const constantRateLoad = join(import.meta.dirname, 'http', 'constantRateLoad.ts')

type Row = {
  case: string
  route: string
  instances: number
  rate: number | 'max'
  p50_ms: number
  p99_ms: number
  rps: number
  loop_delay_p99_ms: number | null
  errors: number
  non2xx: number
} & SolveShare

const API_KEY = 'bench-key-0123456789abcdef'
const USER = '0x000000000000000000000000000000000000bEEF'
const shared = { API_KEYS: API_KEY, RATE_LIMIT_PER_MINUTE: '1000000000', QUOTE_TTL_MS: '3600000', LOG_LEVEL: 'warn' }
const config = loadConfig({ ...process.env, ...shared, PORT: '0' })
// The keeper as `npm start` runs it (src/server.ts): without it the chain never moves, no block is
// re-read and every quote after the first of a trade is the same block's (its memos answer it).
const service = await startSwapService({ config, logger: { level: 'warn' }, propAmmKeeperIntervalMs: 2_000 })
const rows: Row[] = []
const dir = mkdtempSync(join(tmpdir(), 'bench-http-'))
let redis: RedisServer | undefined
try {
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address()
  if (!address || typeof address !== 'object') throw new Error('not listening')
  const market = service.devnet!.market
  const quoteBody = JSON.stringify({
    chainId: service.deps.chainId,
    tokenIn: market.tokens.WETH.address,
    tokenOut: market.tokens.USDC.address,
    amountIn: '1000000000000000000',
    slippageBps: 50,
  })
  // The other cases follow the embedded chain through RPC_URL, with the same deployments (start block 0) and the L1 fee.
  const embedded = devnetChainConfig({ file: market as unknown as DevnetFile })
  writeFileSync(
    join(dir, 'chain.json'),
    JSON.stringify({
      name: 'bench',
      chainId: embedded.chainId,
      weth: embedded.weth,
      multicall3: embedded.multicall3,
      opStack: true,
      deployments: deploymentsFile(embedded.deployments, 0),
    }),
  )

  const histogram = monitorEventLoopDelay({ resolution: 1 })
  for (const name of cases) {
    let processes: ServiceProcess[] = []
    try {
      if (name !== 'embedded' && name !== 'memory') redis ??= await startRedisServer()
      const count = name === 'redis-2' ? 2 : 1
      for (let i = 0; i < (name === 'embedded' ? 0 : count); i++) {
        processes.push(
          await startServiceProcess({
            env: {
              ...shared,
              RPC_URL: market.rpcUrl,
              ROUTER_ADDRESS: market.router,
              CHAIN_CONFIG: join(dir, 'chain.json'),
              MARKET_DB_PATH: join(dir, `${name}-${i}.sqlite`),
              MIN_POOL_LIQUIDITY_WEI: '0',
              MAX_SNAPSHOT_AGE_MS: '600000',
              ...(name === 'memory' ? {} : { REDIS_URL: redis!.url }),
            },
          }),
        )
      }
      const bases = name === 'embedded' ? [`http://127.0.0.1:${address.port}`] : processes.map((p) => p.url)
      // Every instance's metrics, one text (solveShare sums the histograms over them).
      const scrape = async () =>
        name === 'embedded'
          ? service.deps.metrics!.registry.metrics()
          : (await Promise.all(processes.map((p) => fetch(p.metricsUrl).then((r) => r.text())))).join('\n')
      for (const route of routes) {
        const quoted = await post(`${bases[0]}/quote`, quoteBody)
        if (quoted.status !== 200) throw new Error(`${name}: warm-up quote ${quoted.status} ${JSON.stringify(quoted.json)}`)
        const body = route === 'quote' ? quoteBody : JSON.stringify({ quoteId: quoted.json.quoteId, user: USER })
        for (const base of bases) {
          const check = await post(`${base}/${route}`, body)
          if (check.status !== 200) throw new Error(`${name}: warm-up ${route} on ${base}: ${check.status} ${JSON.stringify(check.json)}`)
        }
        for (const rate of rates) {
          const urls = bases.map((b) => `${b}/${route}`)
          const load = loadavg()[0]
          const scraped = await scrape()
          histogram.reset()
          if (name === 'embedded') histogram.enable()
          const result = rate === 'max' ? await saturate(urls, body) : await constantRate(urls, body, rate)
          histogram.disable()
          const share = solveShare({ before: scraped, after: await scrape(), route: `/${route}` })
          const row: Row = {
            case: name,
            route: `/${route}`,
            instances: bases.length,
            rate,
            p50_ms: result.p50_ms,
            p99_ms: result.p99_ms,
            rps: Math.round(result.rps * 10) / 10,
            loop_delay_p99_ms: name === 'embedded' ? Math.round((histogram.percentile(99) / 1e6) * 100) / 100 : null,
            errors: result.errors,
            non2xx: result.non2xx,
            ...share,
          }
          rows.push(row)
          console.log(JSON.stringify(row), `loadavg_1m=${load.toFixed(2)}`)
        }
      }
    } finally {
      for (const p of processes) await p.stop()
      processes = []
    }
  }
} finally {
  await service.fastify.close()
  await redis?.close()
  rmSync(dir, { recursive: true, force: true })
}

/** One call; a 503 (admission control still draining the previous run's solves) is retried for up to 30 s. */
async function post(url: string, body: string): Promise<{ status: number; json: any }> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': API_KEY }, body })
    const answer = { status: res.status, json: await res.json() }
    if (answer.status !== 503 || attempt >= 300) return answer
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

type LoadResult = { p50_ms: number; p99_ms: number; rps: number; errors: number; non2xx: number }

/**
 * Saturation: autocannon, closed loop, every connection sending its next request on each answer;
 * with several instances, one autocannon per instance at once (the connections split between them):
 * throughput is their sum, p50 and p99 the worse of the two.
 */
async function saturate(urls: string[], body: string): Promise<LoadResult> {
  const each = Math.max(1, Math.floor(CONNECTIONS / urls.length))
  const results = await Promise.all(
    urls.map(async (url) => {
      const args = [
        autocannonBin,
        '-j',
        '-m',
        'POST',
        '-H',
        'content-type=application/json',
        '-H',
        `x-api-key=${API_KEY}`,
        '-b',
        body,
        '-d',
        String(DURATION_SEC),
        '-c',
        String(each),
        url,
      ]
      const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 2 ** 20 })
      return JSON.parse(stdout)
    }),
  )
  return {
    p50_ms: Math.max(...results.map((r) => r.latency.p50)),
    p99_ms: Math.max(...results.map((r) => r.latency.p99)),
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  }
}

/** A fixed rate: the open-loop generator, round-robin over the instances. */
async function constantRate(urls: string[], body: string, rate: number): Promise<LoadResult> {
  const args = [
    '--import',
    'tsx',
    constantRateLoad,
    ...urls.flatMap((u) => ['--url', u]),
    '--rate',
    String(rate),
    '--duration',
    String(DURATION_SEC),
    '--sockets',
    String(CONNECTIONS),
    '--header',
    `x-api-key=${API_KEY}`,
    '--body',
    body,
  ]
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 2 ** 20 })
  return JSON.parse(stdout)
}

writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
const cpu = cpus()
console.log(
  `machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), node ${process.version}; ${DURATION_SEC} s per run, ${CONNECTIONS} connections`,
)
console.log(`wrote ${values.out}`)
