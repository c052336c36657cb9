/**
 * The safety ceilings of the metadata-document route and the per-actor ceiling (spec §8) under
 * sustained load, on the embedded chain through HTTP: each case sends requests at a fixed rate,
 * open loop, above what its ceiling admits, for `--duration` seconds (default 60: one window of
 * the per-minute ceilings), and reports how many were admitted (the ceiling exactly, or it
 * failed), which policies refused the rest, and the latency of admitted and refused answers.
 * Admitted documents are pinned (the embedded blockstore) and their plans simulated.
 *
 * Cases (each with its own keys and client address, X-Forwarded-For trusted here):
 * - documents_per_token: one key, one token, 2/s (2 a minute admitted)
 * - documents_per_key: one key, 20 tokens, 2/s (10 a minute)
 * - pinning_per_source: 5 keys, 40 tokens, one address, 3/s (20 a minute)
 * - preparations_per_actor: one key, one actor, on-chain metadata and announcement prepares, 2/s (20 a minute)
 * - pinning_service: on a second gateway (its own limiter: the service-wide count is not shared
 *   with the cases above), 40 keys and addresses, each key a new token each time, 6/s (120 a minute)
 * - documents_per_key_day: on a third gateway whose clock runs 60 times faster (a real second is
 *   a minute of its day), one key, 40 tokens, 3/s: 100 admitted, then refused for the day
 *
 *   node --import tsx bench/gatewayCeilings.bench.ts [--duration 60] [--out bench/results/gateway-ceilings.json]
 */
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { startSeededDevnet } from '../src/devnet/startSeededDevnet.ts'
import { embeddedGatewayChain } from '../src/gateway/embeddedGatewayChain.ts'
import { SCOPES } from '../src/gateway/auth/scopes.ts'
import { type RunningGateway, startGateway } from '../src/gateway/startGateway.ts'
import { openDatabase } from '../src/gateway/store/openDatabase.ts'

const { values } = parseArgs({ options: { duration: { type: 'string', default: '60' }, out: { type: 'string' } } })
const durationSec = Number(values.duration)

const devnet = await startSeededDevnet({})
const lp = devnet.market.launchpad!
const chainId = devnet.market.chainId
const db = await openDatabase({ url: ':memory:' })
const t0 = performance.now()
// The fast clock starts an hour into today (UTC), so its hour of a run never crosses midnight.
const fastStart = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 3_600_000
const gateways: RunningGateway[] = []
for (const now of [Date.now, Date.now, () => fastStart + (performance.now() - t0) * 60]) {
  // The first indexes the launchpad into the shared read model; the others serve it.
  gateways.push(
    await startGateway({
      db,
      trustProxy: true,
      now,
      follow: gateways.length === 0,
      catchUp: gateways.length === 0,
      chains: [embeddedGatewayChain({ devnet })],
    }),
  )
}
const [main, serviceWide, fastClock] = gateways
const roomy = { unitsPerMinute: 10_000_000, burstPerSecond: 10_000_000, daily: 100_000_000, monthly: 1_000_000_000, maxPage: 200 }
const newKeys = (gateway: RunningGateway, n: number) =>
  Promise.all(
    Array.from(
      { length: n },
      async () => (await gateway.deps.keys.create({ plan: 'partner', customLimits: roomy, scopes: [...SCOPES], owner: 'bench' })).key,
    ),
  )

type Request = { path: string; body: unknown; key: string; source: string; idempotent?: boolean }
const send = (gateway: RunningGateway, r: Request) =>
  fetch(`${gateway.url}${r.path}`, {
    method: 'POST',
    body: JSON.stringify(r.body),
    headers: {
      'content-type': 'application/json',
      'x-api-key': r.key,
      'x-forwarded-for': r.source,
      ...(r.idempotent ? { 'idempotency-key': randomBytes(16).toString('hex') } : {}),
    },
  })
const documentRequest = (i: number, key: string, source: string): Request => {
  const t = lp.tokens[i % lp.tokens.length]
  return {
    path: `/tokens/${chainId}/${t.address}/metadata/document/prepare`,
    body: { actor: t.creator, document: { name: `Bench ${randomBytes(4).toString('hex')}`, symbol: 'BNCH' } },
    key,
    source,
    idempotent: true,
  }
}

/** Sends `make(i)` at `rate` per second for the duration, open loop; latencies from each due time. */
async function load(name: string, ceiling: number, gateway: RunningGateway, rate: number, make: (i: number) => Request) {
  const total = Math.max(1, Math.round(rate * durationSec))
  const expected = Math.min(ceiling, total)
  const admitted: number[] = []
  const refused: number[] = []
  const statuses = new Map<number, number>()
  const refusedBy = new Map<string, number>()
  const start = performance.now()
  await Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const due = start + (i * 1000) / rate
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())))
      const res = await send(gateway, make(i))
      const body = (await res.json()) as { violated_policies?: string[] }
      ;(res.status === 429 ? refused : admitted).push(performance.now() - due)
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      for (const p of body.violated_policies ?? []) refusedBy.set(p, (refusedBy.get(p) ?? 0) + 1)
    }),
  )
  const pct = (xs: number[], q: number) => {
    const s = [...xs].sort((a, b) => a - b)
    return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 100) / 100 : null
  }
  const row = {
    case: name,
    rate,
    sent: total,
    admitted: admitted.length,
    expected,
    exact: admitted.length === expected,
    admitted_p50_ms: pct(admitted, 0.5),
    admitted_p99_ms: pct(admitted, 0.99),
    refused_p50_ms: pct(refused, 0.5),
    refused_p99_ms: pct(refused, 0.99),
    statuses: Object.fromEntries(statuses),
    refused_by: Object.fromEntries(refusedBy),
  }
  console.log(JSON.stringify(row))
  return row
}

const [tokenKey, keyKey, actorKey, ...sourceKeys] = await newKeys(main, 8)
const serviceKeys = await newKeys(serviceWide, 40)
const [dayKey] = await newKeys(fastClock, 1)
const actorToken = lp.tokens[30]
// Per-minute ceilings: a run of at most a minute admits exactly the ceiling (or all it sent, when
// fewer): it ends before the first admission leaves the window. Longer runs are not checked.
const minute = (perMinute: number) => (durationSec <= 60 ? perMinute : NaN)

const rows = await Promise.all([
  load('documents_per_token (2/min)', minute(2), main, 2, (i) => documentRequest(0, tokenKey, '10.40.0.1')),
  load('documents_per_key (10/min)', minute(10), main, 2, (i) => documentRequest(1 + (i % 20), keyKey, '10.40.0.2')),
  load('pinning_per_source (20/min)', minute(20), main, 3, (i) => documentRequest(i, sourceKeys[i % 5], '10.40.0.3')),
  load('preparations_per_actor (20/min)', minute(20), main, 2, (i) =>
    i % 2 === 0
      ? {
          path: `/tokens/${chainId}/${actorToken.address}/metadata/onchain/prepare`,
          body: { actor: actorToken.creator, name: `Bench ${i}` },
          key: actorKey,
          source: '10.40.0.4',
        }
      : {
          path: `/tokens/${chainId}/${actorToken.address}/announcements/prepare`,
          body: { author: actorToken.creator, title: `News ${i}`, body: 'Listed.' },
          key: actorKey,
          source: '10.40.0.4',
        },
  ),
  load('pinning_service (120/min)', minute(120), serviceWide, 6, (i) =>
    documentRequest(i + Math.floor(i / 40), serviceKeys[i % 40], `10.41.0.${i % 40}`),
  ),
  // 60 times faster: 3/s is 3 a minute of this gateway's clock, under every per-minute ceiling.
  load('documents_per_key_day (100/day)', 100, fastClock, 3, (i) => documentRequest(i, dayKey, '10.42.0.1')),
])

if (values.out)
  writeFileSync(
    values.out,
    `${JSON.stringify({ machine: { cpu: cpus()[0]?.model, cores: cpus().length, load: loadavg() }, durationSec, rows }, null, 2)}\n`,
  )
for (const g of gateways) await g.close()
await db.close()
await devnet.stop()
if (rows.some((r) => !Number.isNaN(r.expected) && !r.exact)) process.exitCode = 1
