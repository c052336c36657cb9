/**
 * The HTTP service under load over loopback against `POST /quote`: at fixed rates with an
 * open-loop constant-rate generator (`bench/http/constantRateLoad.ts`; autocannon's `-R` sends each
 * second's requests in a burst) and at saturation with autocannon, with the event-loop delay of the
 * service process measured during each run.
 *
 *   node --import tsx bench/http.bench.ts [--rates 50,200,500,max] [--duration 10] [--connections 16] [--out bench/results/http.json]
 *
 * The service runs in this process exactly as `npm start` wires it (embedded seeded chain, native
 * solver, market polling, in-memory limiter and quote cache), with `RATE_LIMIT_PER_MINUTE` set to
 * 1e9 (the bench's documented override: the default 120/min would turn the run into 429s).
 * Both generators run as child processes (their own event loops), so the loop delay below is the
 * service's alone. Request: 1 WETH → USDC, slippage 50 bps, default options (split on).
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/loadConfig.ts'
import { startSwapService } from '../src/startSwapService.ts'

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '50,200,500,max' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    out: { type: 'string', default: 'bench/results/http.json' },
  },
})
const DURATION_SEC = Number(values.duration)
const CONNECTIONS = Number(values.connections)
const rates = values.rates.split(',').map((r) => (r === 'max' ? 'max' : Number(r))) as (number | 'max')[]
const run = promisify(execFile)
const autocannonBin = join(import.meta.dirname, '..', 'node_modules', 'autocannon', 'autocannon.js')
const constantRateLoad = join(import.meta.dirname, 'http', 'constantRateLoad.ts')

type Row = { rate: number | 'max'; p50_ms: number; p99_ms: number; rps: number; loop_delay_p99_ms: number; errors: number; non2xx: number }

const API_KEY = 'bench-key-0123456789abcdef'
const config = loadConfig({ ...process.env, API_KEYS: API_KEY, RATE_LIMIT_PER_MINUTE: '1000000000', PORT: '0', LOG_LEVEL: 'warn' })
const service = await startSwapService({ config, logger: { level: 'warn' } })
const rows: Row[] = []
try {
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address()
  if (!address || typeof address !== 'object') throw new Error('not listening')
  const url = `http://127.0.0.1:${address.port}/quote`
  const tokens = service.devnet!.market.tokens
  const body = JSON.stringify({ chainId: service.deps.chainId, tokenIn: tokens.WETH.address, tokenOut: tokens.USDC.address, amountIn: '1000000000000000000', slippageBps: 50 })

  const check = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': API_KEY }, body })
  if (check.status !== 200) throw new Error(`warm-up quote: ${check.status} ${await check.text()}`)

  const histogram = monitorEventLoopDelay({ resolution: 1 })
  for (const rate of [...rates]) {
    histogram.reset()
    const load = loadavg()[0]
    const cpuBefore = process.cpuUsage()
    histogram.enable()
    const result = rate === 'max' ? await saturate(url, body) : await constantRate(url, body, rate)
    histogram.disable()
    const cpu = process.cpuUsage(cpuBefore)
    const row: Row = {
      rate,
      p50_ms: result.p50_ms,
      p99_ms: result.p99_ms,
      rps: Math.round(result.rps * 10) / 10,
      loop_delay_p99_ms: Math.round((histogram.percentile(99) / 1e6) * 100) / 100,
      errors: result.errors,
      non2xx: result.non2xx,
    }
    rows.push(row)
    // Not in the rows (their shape is fixed): CPU of the service process (all its threads) per
    // answered request, and the machine's load when the run started (the machine is shared).
    const cpuMsPerRequest = (cpu.user + cpu.system) / 1000 / Math.max(1, result.answered)
    console.log(JSON.stringify(row), `cpu_ms_per_req=${cpuMsPerRequest.toFixed(2)} loadavg_1m=${load.toFixed(2)}`)
  }
} finally {
  await service.fastify.close()
}

type LoadResult = { p50_ms: number; p99_ms: number; rps: number; errors: number; non2xx: number; answered: number }

/** Saturation: autocannon, closed loop, every connection sending its next request on each answer. */
async function saturate(url: string, body: string): Promise<LoadResult> {
  const args = [autocannonBin, '-j', '-m', 'POST', '-H', 'content-type=application/json', '-H', `x-api-key=${API_KEY}`, '-b', body, '-d', String(DURATION_SEC), '-c', String(CONNECTIONS), url]
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 2 ** 20 })
  const r = JSON.parse(stdout)
  return { p50_ms: r.latency.p50, p99_ms: r.latency.p99, rps: r.requests.average, errors: r.errors + r.timeouts, non2xx: r.non2xx, answered: r.requests.total }
}

/** A fixed rate: the open-loop generator (`bench/http/constantRateLoad.ts`; autocannon's -R sends bursts). */
async function constantRate(url: string, body: string, rate: number): Promise<LoadResult> {
  const args = ['--import', 'tsx', constantRateLoad, '--url', url, '--rate', String(rate), '--duration', String(DURATION_SEC), '--sockets', String(CONNECTIONS), '--header', `x-api-key=${API_KEY}`, '--body', body]
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 2 ** 20 })
  const r = JSON.parse(stdout)
  return { ...r, answered: r.sent - r.errors }
}

writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
const cpu = cpus()
console.log(`machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), node ${process.version}; ${DURATION_SEC} s per run, ${CONNECTIONS} connections`)
console.log(`wrote ${values.out}`)
