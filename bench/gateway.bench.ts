/**
 * The gateway's read routes under load over loopback, on a synthetic read model of 10,000 tokens
 * and 1,000,000 trades (`bench/gateway/seedSyntheticReadModel.ts`), on SQLite and on PostgreSQL
 * (the project's own, `scripts/postgres.sh`): p50/p99 of the token list, token detail and trades
 * routes at fixed rates with the open-loop generator (`bench/http/constantRateLoad.ts`), then the
 * weighted limiter's cost per request in memory (all 6 policies of a holder snapshot request).
 *
 *   node --import tsx bench/gateway.bench.ts [--engines sqlite,postgres] [--rates 100,300] [--duration 10]
 *     [--tokens 10000] [--trades 1000000] [--out bench/results/gateway.json]
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import type { PublicClient } from 'viem'
import { createWeightedLimiter } from '../src/gateway/limits/createWeightedLimiter.ts'
import type { PolicyCharge } from '../src/gateway/limits/LimitPolicy.ts'
import { plans } from '../src/gateway/limits/plans.ts'
import { planCharges } from '../src/gateway/http/planCharges.ts'
import { startGateway } from '../src/gateway/startGateway.ts'
import { openDatabase } from '../src/gateway/store/openDatabase.ts'
import { seedSyntheticReadModel } from './gateway/seedSyntheticReadModel.ts'

const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'sqlite,postgres' },
    rates: { type: 'string', default: '100,300' },
    duration: { type: 'string', default: '10' },
    tokens: { type: 'string', default: '10000' },
    trades: { type: 'string', default: '1000000' },
    out: { type: 'string' },
  },
})
const root = join(import.meta.dirname, '..')
const constantRateLoad = join(import.meta.dirname, 'http', 'constantRateLoad.ts')
const rates = values.rates.split(',').map(Number)

async function openEngine(engine: string) {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'))
    const db = await openDatabase({ url: join(dir, 'bench.sqlite') })
    return { db, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const admin = execFileSync('bash', [join(root, 'scripts', 'postgres.sh'), 'start'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!
  const name = `gw_bench_${randomBytes(4).toString('hex')}`
  const c = new pg.Client({ connectionString: admin })
  await c.connect()
  await c.query(`CREATE DATABASE ${name}`)
  await c.end()
  const db = await openDatabase({ url: admin.replace(/\/[^/]*$/, `/${name}`) })
  return {
    db,
    drop: async () => {
      const d = new pg.Client({ connectionString: admin })
      await d.connect()
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await d.end()
    },
  }
}

function load(
  url: string,
  key: string,
  rate: number,
): Promise<{ p50_ms: number; p99_ms: number; rps: number; errors: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        constantRateLoad,
        '--url',
        url,
        '--rate',
        String(rate),
        '--duration',
        values.duration,
        '--sockets',
        '16',
        '--method',
        'GET',
        '--header',
        `x-api-key=${key}`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('exit', () => resolve(JSON.parse(out)))
  })
}

type Row = { engine: string; route: string; rate: number; p50_ms: number; p99_ms: number; rps: number; errors: number; non2xx: number }
const rows: Row[] = []
for (const engine of values.engines.split(',')) {
  const { db, drop } = await openEngine(engine)
  const t0 = performance.now()
  const { hotToken } = await seedSyntheticReadModel({ db, tokens: Number(values.tokens), trades: Number(values.trades) })
  console.log(
    `${engine}: read model of ${values.tokens} tokens and ${values.trades} trades written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  // Only the read model is served: no chain is followed (the three routes read nothing live).
  const chain = {
    chainId: 8453,
    name: 'bench',
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
    client: {} as PublicClient,
    launchpad: {
      chainId: 8453,
      factory: `0x${'1'.repeat(40)}`,
      feeLocker: `0x${'2'.repeat(40)}`,
      vestingVault: `0x${'3'.repeat(40)}`,
      fromBlock: 0n,
      uniswapV3Factory: `0x${'4'.repeat(40)}`,
    },
    fromBlock: 0n,
  } as const
  const gateway = await startGateway({ db, chains: [chain as never], follow: false, catchUp: false })
  const { key } = await gateway.deps.keys.create({
    plan: 'partner',
    customLimits: { unitsPerMinute: 1e9, burstPerSecond: 1e9, daily: 1e12, monthly: 1e13, maxPage: 200 },
    scopes: ['tokens:read'],
    owner: 'bench',
  })
  const routes: [string, string][] = [
    ['token list (trending, 25)', '/tokens?sort=trending'],
    ['token detail', `/tokens/8453/${hotToken}`],
    ['trades (hot token, 25)', `/tokens/8453/${hotToken}/trades`],
  ]
  for (const [route, path] of routes) {
    for (const rate of rates) {
      const r = await load(`${gateway.url}${path}`, key, rate)
      rows.push({ engine, route, rate, p50_ms: r.p50_ms, p99_ms: r.p99_ms, rps: r.rps, errors: r.errors, non2xx: r.non2xx })
      console.log(
        `${engine}\t${route}\t${rate}/s\tp50 ${r.p50_ms.toFixed(2)} ms\tp99 ${r.p99_ms.toFixed(2)} ms\t${r.rps.toFixed(0)} answered/s\t${r.non2xx} non-2xx`,
      )
    }
  }
  await gateway.close()
  await db.close()
  await drop()
}

// The limiter: one request's 6 policies (the plan's 4 and 2 holder-snapshot ceilings), consumed and released.
const limiter = createWeightedLimiter({})
const charges: PolicyCharge[] = [
  ...planCharges({
    keyPrefix: 'benchbenchbe',
    limits: { ...plans.builder, unitsPerMinute: 1e12, burstPerSecond: 1e12, daily: 1e15, monthly: 1e15 },
    units: 10,
  }),
  { policy: { kind: 'concurrency', name: 'in_flight', key: 'bench:inflight', limit: 2 }, group: 'ceiling', cost: 1 },
  { policy: { kind: 'window', name: 'per_source', key: 'bench:source', limit: 1e12, windowMs: 60_000 }, group: 'ceiling', cost: 1 },
]
const N = 200_000
for (let i = 0; i < 20_000; i++) {
  const d = await limiter.consume(charges)
  if (d.allowed) await d.release()
}
const l0 = performance.now()
for (let i = 0; i < N; i++) {
  const d = await limiter.consume(charges)
  if (d.allowed) await d.release()
}
const perRequestUs = ((performance.now() - l0) * 1000) / N
console.log(`limiter: ${perRequestUs.toFixed(2)} µs per request (6 policies, consume + release, in memory, mean of ${N})`)

const cpu = cpus()
const result = {
  machine: `${cpu.length} cores (${cpu[0]?.model.trim()}), node ${process.version}`,
  duration_s: Number(values.duration),
  tokens: Number(values.tokens),
  trades: Number(values.trades),
  rows,
  limiter_us_per_request: perRequestUs,
}
if (values.out) writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`)
