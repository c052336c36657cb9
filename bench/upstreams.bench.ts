/**
 * POST /quote/compare and POST /quote/split with the six upstreams as local stand-ins (each speaking
 * its API over loopback) that answer after a latency drawn around 0x's published /price figures
 * (log-normal, p50 340 ms, p95 500 ms; the other five publish none), and our overhead on top of
 * them: from the moment the last upstream answer the service used left its stand-in to the moment
 * our answer reached the client.
 *
 *   node --import tsx bench/upstreams.bench.ts [--requests 80] [--out bench/results/upstreams.json] [--verbose]
 *
 * (`--verbose` prints every upstream error line as it comes.)
 *
 * The service runs as `npm start` wires it (embedded seeded chain, native solver, market polling),
 * in this process, with the upstreams exactly as `UPSTREAMS_DEMO=1` starts them (startDemoUpstreams:
 * priced from our market at depths of their own, each enforcing its published tier, our buckets
 * paced at 80 % of it), the latency drawn as above. Requests go one at a time, the four operations
 * in turn (compare, split, and each with a `taker`, which asks for executable quotes), so the
 * upstreams that a bucket left out are error lines (`throttled`), as a real deployment on the free
 * tiers would see them. The stand-ins, the client and the service share the process and its 2 cores.
 *
 * Overhead = our answer's arrival at the client − the last upstream answer (HTTP 200, sent before
 * the request's deadline) that left its stand-in while the request was open. When an upstream
 * missed the deadline (the log-normal's tail; with a taker, KyberSwap, Odos and Velora take two
 * calls in a row) the service answers at the deadline by design, so the overhead is
 * counted from the deadline (the client's send time + the budget: an over-estimate by the request's
 * transit), and such requests are counted in `deadline_hit`.
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { Address } from 'viem'
import { loadConfig } from '../src/config/loadConfig.ts'
import { createSwapApp } from '../src/http/createSwapApp.ts'
import { createCachedGasPrice } from '../src/quote/createCachedGasPrice.ts'
import { startSwapService } from '../src/startSwapService.ts'
import { createTokenDecimals } from '../src/upstream/createTokenDecimals.ts'
import { createUpstreamService } from '../src/upstream/createUpstreamService.ts'
import { upstreamIds } from '../src/upstream/registry.ts'
import { latencySampler } from '../src/upstream/standIns/latencySampler.ts'
import { startDemoUpstreams } from '../src/upstream/standIns/startDemoUpstreams.ts'
import type { UpstreamStandIn } from '../src/upstream/standIns/startUpstreamStandIn.ts'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '80' },
    out: { type: 'string', default: 'bench/results/upstreams.json' },
    verbose: { type: 'boolean', default: false },
  },
})
const REQUESTS = Number(values.requests)
const API_KEY = 'bench-key-0123456789abcdef'
const now = () => performance.timeOrigin + performance.now()

type Row = {
  operation: string
  requests: number
  upstream_errors: number
  deadline_hit: number
  error_kinds: Record<string, number>
  p50_ms: number
  p99_ms: number
  slowest_upstream_p50_ms: number
  overhead_p50_ms: number
  overhead_p99_ms: number
  loop_delay_p99_ms: number
}

const config = loadConfig({
  ...process.env,
  API_KEYS: API_KEY,
  RATE_LIMIT_PER_MINUTE: '1000000000',
  PORT: '0',
  LOG_LEVEL: 'warn',
  UPSTREAMS: '',
})
const service = await startSwapService({ config, logger: { level: 'warn' } })
const tokens = service.devnet!.market.tokens
const weth = tokens.WETH.address as Address
const usdc = tokens.USDC.address as Address
const standIns: UpstreamStandIn[] = []
let closeDemo = async () => {}
const rows: Row[] = []
try {
  // Exactly what UPSTREAMS_DEMO=1 starts: the six stand-ins priced from our market at depths of their
  // own, enforcing their published tiers, and our buckets paced at 80 % of them; only the latency is set here.
  const quoteService = service.deps.quoteService
  const quoteOut = async (tokenIn: Address, tokenOut: Address, amountIn: bigint) =>
    BigInt(
      (await quoteService.quote({ chainId: service.deps.chainId, tokenIn, tokenOut, amountIn: amountIn.toString(), slippageBps: 0 }))
        .expectedAmountOut,
    )
  const demo = await startDemoUpstreams({
    ids: upstreamIds,
    chainId: service.deps.chainId,
    latency: latencySampler({ p50Ms: 340, p95Ms: 500 }),
    quote: (trade) => quoteOut(trade.tokenIn, trade.tokenOut, trade.amountIn).catch(() => undefined),
  })
  standIns.push(...demo.standIns)
  closeDemo = demo.close
  const upstreams = createUpstreamService({
    upstreams: demo.upstreams,
    chainId: service.deps.chainId,
    weth,
    defaultBudgetMs: config.upstreams.timeBudgetMs,
    gasPriceWei: createCachedGasPrice({ read: () => service.publicClient.getGasPrice() }),
    decimalsOf: createTokenDecimals({ client: service.publicClient }),
    quoteWeth: (tokenOut, wei) => quoteOut(weth, tokenOut, wei),
  })
  const app = await createSwapApp({ deps: { ...service.deps, upstreams } })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address !== 'object') throw new Error('not listening')
  const base = `http://127.0.0.1:${address.port}`
  const taker = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
  const body = (extra: object = {}) =>
    JSON.stringify({
      chainId: service.deps.chainId,
      tokenIn: weth,
      tokenOut: usdc,
      amountIn: (20n * 10n ** 18n).toString(),
      slippageBps: 50,
      ...extra,
    })
  const operations = [
    { operation: '/quote/compare', path: '/quote/compare', body: body() },
    { operation: '/quote/split', path: '/quote/split', body: body() },
    { operation: '/quote/compare (taker)', path: '/quote/compare', body: body({ taker }) },
    { operation: '/quote/split (taker)', path: '/quote/split', body: body({ taker }) },
  ]
  const samples = new Map(
    operations.map((o) => [
      o.operation,
      {
        total: [] as number[],
        upstream: [] as number[],
        overhead: [] as number[],
        errors: 0,
        deadlineHit: 0,
        kinds: {} as Record<string, number>,
      },
    ]),
  )
  const budgetMs = config.upstreams.timeBudgetMs
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  // Warm-up: connections to every stand-in, the JIT, the gas price and rate caches.
  for (const o of operations)
    await fetch(`${base}${o.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: o.body,
    }).then((r) => r.text())
  const load = loadavg()[0]
  histogram.enable()
  for (let i = 0; i < REQUESTS; i++) {
    for (const o of operations) {
      const sent = now()
      const res = await fetch(`${base}${o.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: o.body,
      })
      const text = await res.text()
      const received = now()
      if (res.status !== 200) throw new Error(`${o.operation}: ${res.status} ${text}`)
      const errors =
        (JSON.parse(text) as { errors?: string[]; upstream?: { errors: string[] } }).errors ??
        (JSON.parse(text) as { upstream: { errors: string[] } }).upstream?.errors ??
        []
      // An upstream past the deadline (the log-normal's tail) is an error line, not a failed request.
      const s = samples.get(o.operation)!
      s.errors += errors.length
      for (const line of errors) {
        const kind = line.split(': ')[1] ?? line
        s.kinds[kind] = (s.kinds[kind] ?? 0) + 1
      }
      if (values.verbose) for (const line of errors) console.error(o.operation, Math.round(received - sent), line)
      const deadline = sent + budgetMs
      // The last upstream answer this request used: answered 200 after our send, before the deadline and our answer.
      const used = standIns
        .flatMap((standIn) => standIn.requests)
        .filter(
          (r) => r.answeredAt !== undefined && r.answeredAt >= sent && r.answeredAt <= Math.min(received, deadline) && r.status === 200,
        )
      const last = Math.max(...used.map((r) => r.answeredAt!))
      const timedOut = errors.some((line) => line.split(': ')[1] === 'timeout')
      if (timedOut) s.deadlineHit++
      s.total.push(received - sent)
      s.upstream.push(last - sent)
      s.overhead.push(received - (timedOut ? Math.max(last, deadline) : last))
      for (const standIn of standIns) standIn.requests.length = 0
    }
  }
  histogram.disable()
  const pct = (xs: number[], p: number) => {
    const sorted = [...xs].sort((a, b) => a - b)
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100
  }
  for (const o of operations) {
    const s = samples.get(o.operation)!
    const row: Row = {
      operation: o.operation,
      requests: s.total.length,
      upstream_errors: s.errors,
      deadline_hit: s.deadlineHit,
      error_kinds: s.kinds,
      p50_ms: pct(s.total, 50),
      p99_ms: pct(s.total, 99),
      slowest_upstream_p50_ms: pct(s.upstream, 50),
      overhead_p50_ms: pct(s.overhead, 50),
      overhead_p99_ms: pct(s.overhead, 99),
      loop_delay_p99_ms: Math.round((histogram.percentile(99) / 1e6) * 100) / 100,
    }
    rows.push(row)
    console.log(JSON.stringify(row))
  }
  console.log(`loadavg_1m at start: ${load.toFixed(2)}`)
  await app.close()
  await upstreams.close()
} finally {
  await closeDemo()
  await service.fastify.close()
}
writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`)
const cpu = cpus()
console.log(`machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), node ${process.version}; ${REQUESTS} requests per operation`)
console.log(`wrote ${values.out}`)
