/**
 * The cost of sharing the gateway's state: one instance with its limits in memory and its store
 * in SQLite, against two instances sharing a real Redis (limits, ceilings, leases) and the
 * project's PostgreSQL (keys, idempotency, plans, read model), requests alternating between them.
 * p50/p99 of a read route (token detail) and a prepare route (a metadata document: pinned,
 * simulated, its plan and idempotency entry stored) at fixed rates, open loop (each request is sent
 * at its due time; latency counts from it). Keys, client addresses (`X-Forwarded-For`, trusted)
 * and tokens rotate so spec §8's ceilings admit every request; any answer but 200 is counted apart.
 * The two instances run in this process (one event loop between them and the generator), so the
 * comparison is of the shared state's round trips, not of the CPUs a fleet adds.
 *
 *   node --import tsx bench/gatewayFleet.bench.ts [--duration 10] [--read-rates 50,150] [--prepare-rates 1,2] [--out bench/results/gateway-fleet.json]
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startSeededDevnet } from '../src/devnet/startSeededDevnet.ts'
import { embeddedGatewayChain } from '../src/gateway/embeddedGatewayChain.ts'
import { type RunningGateway, startGateway } from '../src/gateway/startGateway.ts'
import { openDatabase } from '../src/gateway/store/openDatabase.ts'
import { startGatewayFleet } from '../test/gateway/fixtures/startGatewayFleet.ts'
import { fixedRateRequests } from './gateway/fixedRateRequests.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    'read-rates': { type: 'string', default: '50,150' },
    'prepare-rates': { type: 'string', default: '1,2' },
    out: { type: 'string' },
  },
})
const durationSec = Number(values.duration)

const devnet = await startSeededDevnet({})
const lp = devnet.market.launchpad!
const chainId = devnet.market.chainId
const roomy = { unitsPerMinute: 10_000_000, burstPerSecond: 10_000_000, daily: 100_000_000, monthly: 1_000_000_000, maxPage: 200 }

/** Sends `make(i)` at `rate` per second for the duration, open loop; latencies from each due time. */
async function load(setup: string, route: string, rate: number, make: (i: number) => Promise<Response>) {
  const row = { setup, route, rate, ...(await fixedRateRequests({ rate, durationSec, make })) }
  console.log(`${setup}\t${route}\t${rate}/s\tp50 ${row.p50_ms} ms\tp99 ${row.p99_ms} ms\t${JSON.stringify(row.statuses)}`)
  return row
}

/** Runs the routes against `instances` (requests alternate between them). */
async function measure(setup: string, instances: RunningGateway[]) {
  const keys = await Promise.all(
    Array.from(
      { length: 20 },
      async () =>
        (
          await instances[0].deps.keys.create({
            plan: 'partner',
            customLimits: roomy,
            scopes: ['tokens:read', 'metadata:write'],
            owner: 'bench',
          })
        ).key,
    ),
  )
  const pick = (i: number) => instances[i % instances.length]
  const headers = (i: number) => ({ 'x-api-key': keys[i % keys.length], 'x-forwarded-for': `10.77.${(i >> 8) & 255}.${i & 255}` })
  const rows = []
  for (const rate of values['read-rates'].split(',').map(Number))
    rows.push(
      await load(setup, 'token detail', rate, (i) =>
        fetch(`${pick(i).url}/tokens/${chainId}/${lp.tokens[i % lp.tokens.length].address}`, { headers: headers(i) }),
      ),
    )
  let n = 0
  for (const rate of values['prepare-rates'].split(',').map(Number))
    rows.push(
      await load(setup, 'metadata document prepare', rate, () => {
        const i = n++
        const t = lp.tokens[i % lp.tokens.length]
        return fetch(`${pick(i).url}/tokens/${chainId}/${t.address}/metadata/document/prepare`, {
          method: 'POST',
          headers: { ...headers(i), 'content-type': 'application/json', 'idempotency-key': randomBytes(16).toString('hex') },
          body: JSON.stringify({ actor: t.creator, document: { name: `Bench ${i}`, symbol: 'BNCH' } }),
        })
      }),
    )
  return rows
}

const rows = []
// One instance: limits in memory, the store in SQLite.
{
  const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-'))
  const db = await openDatabase({ url: join(dir, 'gateway.sqlite') })
  const gateway = await startGateway({ db, chains: [embeddedGatewayChain({ devnet })], trustProxy: true, environment: 'test' })
  rows.push(...(await measure('1 instance, memory + SQLite', [gateway])))
  await gateway.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
}
// Two instances on one Redis and one PostgreSQL; the first follows the chain, the second serves.
{
  const fleet = await startGatewayFleet({ devnet, size: 2 })
  rows.push(
    ...(await measure(
      '2 instances, Redis + PostgreSQL',
      fleet.instances.map((i) => i.gateway),
    )),
  )
  await fleet.close()
}

if (values.out) writeFileSync(values.out, `${JSON.stringify({ machine: { load: loadavg() }, durationSec, rows }, null, 2)}\n`)
await devnet.stop()
