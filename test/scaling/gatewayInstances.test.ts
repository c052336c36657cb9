import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type SeededDevnet, startSeededDevnet } from '../../src/devnet/startSeededDevnet.ts'
import type { PlanLimits } from '../../src/gateway/limits/plans.ts'
import { startEmbeddedGateway } from '../../src/gateway/startEmbeddedGateway.ts'
import type { RunningGateway } from '../../src/gateway/startGateway.ts'
import { SCOPES } from '../../src/gateway/auth/scopes.ts'
import { startRoundRobinProxy } from '../fixtures/startRoundRobinProxy.ts'
import { gatewayFuzzValues, runGatewaySchemaFuzz } from '../gateway/fixtures/runGatewaySchemaFuzz.ts'
import { installSchemathesis } from '../fixtures/schemathesis.ts'
import { type GatewayFleet, startGatewayFleet } from '../gateway/fixtures/startGatewayFleet.ts'
import { type GatewayProcess, spawnGatewayProcess } from '../gateway/fixtures/spawnGatewayProcess.ts'
import { testEngines } from '../gateway/fixtures/testDatabases.ts'

// Two gateway instances in one test process sharing only a real redis-server and a real
// PostgreSQL (scripts/postgres.sh): each has its own HTTP server, its own database pool, its own
// Redis connection, its own caches and memory. B follows no chain itself (A's indexer keeps the
// read model current). Through HTTP over sockets: one key's plan limit and the §8 ceilings exact
// across both under concurrency; idempotent replays, plans and cursors served by the other
// instance; a restart keeps the minute window; Redis or PostgreSQL down answers 503 with /health
// saying why. Instances in processes of their own (test/gateway/fixtures/gatewayProcess.ts) are
// SIGKILLed: one mid-request (its leases, its idempotency key, its usage counts), one leading the
// indexing of a database another process follows too (the other takes over).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const root = join(import.meta.dirname, '..', '..')
const LEASE_TTL_MS = 1_500
/** Longer than a step of the indexer on a loaded machine (a lease that lapses mid-step hands the chain over). */
const INDEXER_LEASE_TTL_MS = 3_000

let devnet: SeededDevnet
let fleet: GatewayFleet
let a: RunningGateway
let b: RunningGateway

beforeAll(async () => {
  devnet = await startSeededDevnet({})
  fleet = await startGatewayFleet({ devnet, size: 2, leaseTtlMs: LEASE_TTL_MS })
  ;[a, b] = fleet.instances.map((i) => i.gateway)
}, 900_000)

afterAll(async () => {
  await fleet?.close()
  await devnet?.stop()
})

const keyWith = async (input: { limits?: PlanLimits; scopes?: string[] } = {}) =>
  (
    await a.deps.keys.create({
      plan: 'partner',
      customLimits: input.limits ?? {
        unitsPerMinute: 100_000,
        burstPerSecond: 100_000,
        daily: 10_000_000,
        monthly: 100_000_000,
        maxPage: 100,
      },
      scopes: (input.scopes ?? ['tokens:read', 'transactions:read', 'metadata:write', 'config:read']) as never,
      owner: 'fleet@example.com',
    })
  ).key

const get = (gateway: RunningGateway, path: string, key?: string, source = '10.40.0.1') =>
  fetch(`${gateway.url}${path}`, { headers: { ...(key ? { 'x-api-key': key } : {}), 'x-forwarded-for': source } })

const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'
const unknownPrefix = () => [...randomBytes(12)].map((byte) => PREFIX_ALPHABET[byte & 31]).join('')
const tokenAt = (i: number) => devnet.market.launchpad!.tokens[i]
/** A document update of token i; the same for the same idempotency key (a retry is the same request). */
const documentBody = (i: number, idempotencyKey: string) => ({
  actor: tokenAt(i).creator,
  document: { name: `Doc ${idempotencyKey.slice(0, 8)}`, symbol: 'DOC' },
})
const documentPrepare = (gateway: RunningGateway, i: number, key: string, idempotencyKey: string, source: string) =>
  fetch(`${gateway.url}/tokens/${devnet.market.chainId}/${tokenAt(i).address}/metadata/document/prepare`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': idempotencyKey, 'x-forwarded-for': source },
    body: JSON.stringify(documentBody(i, idempotencyKey)),
  })

describe('limits across two instances', () => {
  test("200 requests of one key spread over both admit exactly the plan's limit; a restarted instance keeps the minute window", async () => {
    // 100 units a minute; a token page costs 2: exactly 50 of 200 concurrent requests fit.
    const key = await keyWith({
      limits: { unitsPerMinute: 100, burstPerSecond: 100_000, daily: 1_000_000, monthly: 10_000_000, maxPage: 100 },
    })
    const path = `/tokens/${devnet.market.chainId}/${tokenAt(0).address}`
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => get(i % 2 ? a : b, path, key)))
    const statuses = answers.map((r) => r.status)
    assert.equal(statuses.filter((s) => s === 200).length, 50)
    assert.equal(statuses.filter((s) => s === 429).length, 150)
    const refused = (await answers[statuses.indexOf(429)].json()) as Json
    assert.equal(refused.code, 'rate_limit_exceeded')
    assert.deepEqual(refused.violated_policies, ['minute'])
    // Both instances admitted some (the load was really spread).
    assert.ok(
      statuses.filter((s, i) => s === 200 && i % 2 === 0).length > 0 && statuses.filter((s, i) => s === 200 && i % 2 === 1).length > 0,
    )

    // B restarted (a new process state: its memory, caches and connections are gone): the window is still full.
    const old = fleet.instances.find((o) => o.gateway === b)!
    await fleet.stop(old)
    b = (await fleet.start()).gateway
    const after = await get(b, path, key)
    assert.equal(after.status, 429)
    assert.equal(((await after.json()) as Json).code, 'rate_limit_exceeded')
  })

  test('uncached key lookups: 60 per source per minute across both, of 100 concurrent unknown prefixes', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        get(i % 2 ? a : b, '/tokens', `gw_test_${unknownPrefix()}_00112233445566778899aabbccddeeff`, '10.40.1.1'),
      ),
    )
    const codes = await Promise.all(answers.map(async (r) => ((await r.json()) as Json).code as string))
    assert.equal(codes.filter((c) => c === 'invalid_api_key').length, 60)
    assert.equal(codes.filter((c) => c === 'quota_exceeded').length, 40)
  })

  test('metadata documents of one token: 2 a minute across both, of 100 concurrent (documents_per_token)', async () => {
    const key = await keyWith()
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => documentPrepare(i % 2 ? a : b, 1, key, randomBytes(16).toString('hex'), '10.40.2.1')),
    )
    const statuses = answers.map((r) => r.status)
    assert.equal(statuses.filter((s) => s === 200).length, 2, statuses.join())
    const refused = await Promise.all(answers.filter((r) => r.status === 429).map(async (r) => (await r.json()) as Json))
    assert.equal(refused.length, 98)
    for (const body of refused) assert.deepEqual([body.code, body.violated_policies], ['quota_exceeded', ['documents_per_token']])
  })
})

describe('an instance SIGKILLed (a process of its own)', () => {
  /** A's `get`, on any URL (the killed instance's too). */
  const getAt = (url: string, path: string, key: string, source: string) =>
    fetch(`${url}${path}`, { headers: { 'x-api-key': key, 'x-forwarded-for': source } })
  const keyOf = async (scopes: string[]) => keyWith({ scopes })

  test('SIGKILLed mid-request: the other instance keeps serving, the leases and the idempotency key free after their TTLs, no usage count lost', async () => {
    const launchpad = devnet.market.launchpad!
    const c = await spawnGatewayProcess({
      rpcUrl: devnet.anvil.url,
      chainId: devnet.market.chainId,
      launchpad,
      databaseUrl: fleet.store.url,
      redisUrl: fleet.redisServer.url,
      cursorSecret: fleet.cursorSecret,
      follow: false,
      leaseTtlMs: LEASE_TTL_MS,
      idempotencyLeaseMs: LEASE_TTL_MS,
      hangHolders: true,
      hangPins: true,
    })
    try {
      await sigkilled(c)
    } finally {
      await c.kill()
    }
  }, 60_000)

  const sigkilled = async (c: GatewayProcess) => {
    const launchpad = devnet.market.launchpad!
    const reader = await keyOf(['tokens:read'])
    const holdersKey = await keyOf(['holders:read'])
    const writer = await keyOf(['metadata:write'])
    const token = launchpad.tokens[0]
    const tokenPath = `/tokens/${devnet.market.chainId}/${token.address}`
    const holdersPath = `${tokenPath}/holders`

    // The cost of one token read, as the summaries count it (A answers it, A's copy writes it).
    assert.equal((await getAt(a.url, tokenPath, reader, '10.41.0.1')).status, 200)
    await a.deps.usage.flush()
    const usageOf = async (key: string) => {
      const prefix = key.split('_')[2]
      const [row] = await fleet.store.query<{ units: number; requests: number }>(
        'SELECT units, requests FROM usage_daily WHERE key_prefix = $1',
        [prefix],
      )
      return row
    }
    const one = await usageOf(reader)
    assert.equal(one.requests, 1)

    // C answers six reads of the key, then takes the holder key's two leases and an idempotency key, and never finishes those.
    for (let i = 0; i < 6; i++) assert.equal((await getAt(c.url, tokenPath, reader, '10.41.0.2')).status, 200)
    const inFlight: Promise<unknown>[] = [
      getAt(c.url, holdersPath, holdersKey, '10.41.0.3'),
      getAt(c.url, holdersPath, holdersKey, '10.41.0.3'),
    ]
    const idem = randomBytes(16).toString('hex')
    const prepare = (url: string) =>
      fetch(`${url}/tokens/${devnet.market.chainId}/${launchpad.tokens[1].address}/metadata/document/prepare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': writer, 'idempotency-key': idem, 'x-forwarded-for': '10.41.0.4' },
        body: JSON.stringify({ actor: launchpad.tokens[1].creator, document: { name: 'Killed', symbol: 'KIL' } }),
      })
    inFlight.push(prepare(c.url))
    // Their connections break when C dies: settled now, so no rejection goes unhandled.
    const settled = Promise.allSettled(inFlight)
    await sleep(500)
    await c.kill()
    await settled

    // Right after: C's leases and idempotency key are still held; A refuses the leases and serves the rest.
    const during = await getAt(a.url, holdersPath, holdersKey, '10.41.0.5')
    assert.equal(during.status, 429)
    assert.deepEqual(((await during.json()) as Json).violated_policies, ['holder_snapshots_in_flight_per_key'])
    const [entry] = await fleet.store.query<{ state: string }>('SELECT state FROM idempotency_entries WHERE idempotency_key = $1', [idem])
    assert.equal(entry.state, 'running', 'C claimed the idempotency key before it died')
    assert.equal((await getAt(a.url, tokenPath, reader, '10.41.0.1')).status, 200)

    // Past the TTLs: both are free on A.
    await sleep(LEASE_TTL_MS + 300)
    assert.equal((await getAt(a.url, holdersPath, holdersKey, '10.41.0.5')).status, 200, "the killed instance's leases expired")
    const taken = await prepare(a.url)
    assert.equal(taken.status, 200, `the idempotency key C held was taken over and the request ran: ${await taken.clone().text()}`)
    assert.equal(taken.headers.get('idempotent-replayed'), null)

    // Every read was counted: A's two and C's six (C never flushed anything: it was killed).
    await a.deps.usage.flush()
    assert.deepEqual(await usageOf(reader), { units: 8 * one.units, requests: 8 })
    // The holder key: C's two admitted (in flight when killed), A's one admitted after the TTL.
    assert.equal((await usageOf(holdersKey)).requests, 3)
  }
})

describe('the store across two instances', () => {
  test('an idempotent request retried on the other instance replays; its plan is served by the other instance', async () => {
    const key = await keyWith()
    const idem = randomBytes(16).toString('hex')
    const first = await documentPrepare(a, 2, key, idem, '10.40.3.1')
    assert.equal(first.status, 200)
    const body = (await first.json()) as Json
    const retried = await documentPrepare(b, 2, key, idem, '10.40.3.1')
    assert.equal(retried.status, 200)
    assert.equal(retried.headers.get('idempotent-replayed'), 'true')
    assert.deepEqual((await retried.json()) as Json, body)
    const plan = await get(b, `/plans/${body.data.plan_id}`, key)
    assert.equal(plan.status, 200)
    assert.deepEqual(((await plan.json()) as Json).data, body.data)
  })

  test('a cursor from one instance pages on the other (one GATEWAY_CURSOR_SECRET)', async () => {
    const key = await keyWith()
    const page = (await (await get(a, '/tokens?limit=2', key)).json()) as Json
    assert.ok(page.page.next_cursor, 'the seeded launchpad has more than 2 tokens')
    const next = await get(b, `/tokens?limit=2&cursor=${encodeURIComponent(page.page.next_cursor)}`, key)
    assert.equal(next.status, 200)
    const rows = ((await next.json()) as Json).data
    assert.ok(rows.length > 0)
    assert.notDeepEqual(rows[0], page.data[0])
  })
})

describe('the schema fuzzer through a load balancer over both instances', () => {
  // FUZZ_FLEET_MAX_EXAMPLES (default 2 per operation, sized to the time CI gives this file) and
  // FUZZ_SEED vary the run; gatewaySchemaFuzz.test.ts runs 20 against one instance.
  test('every request the document accepts, alternately on A and B: never a 5xx, every answer as documented', async () => {
    await installSchemathesis()
    const key = await keyWith({ scopes: [...SCOPES] })
    const proxy = await startRoundRobinProxy([a.url, b.url])
    try {
      await runGatewaySchemaFuzz({
        url: proxy.url,
        key,
        values: await gatewayFuzzValues({ db: fleet.store, chainId: devnet.market.chainId, launchpad: devnet.market.launchpad! }),
        mode: 'positive',
        checks: ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'],
        phases: ['examples', 'fuzzing'],
        maxExamples: process.env.FUZZ_FLEET_MAX_EXAMPLES ?? 2,
      })
      assert.ok(
        proxy.forwarded.every((n) => n > 20),
        `both instances answered: ${proxy.forwarded.join(', ')}`,
      )
    } finally {
      await proxy.close()
    }
  }, 300_000)
})

describe('shared state unreachable', () => {
  test('Redis down: keyed requests are 503 temporarily_unavailable on both, /health says why; back up, served again', async () => {
    const key = await keyWith()
    assert.equal((await get(a, '/tokens?limit=1', key)).status, 200)
    await fleet.redisServer.stop()
    try {
      for (const gateway of [a, b]) {
        const res = await get(gateway, '/tokens?limit=1', key)
        assert.equal(res.status, 503)
        assert.equal(((await res.json()) as Json).code, 'temporarily_unavailable')
        assert.ok(res.headers.get('retry-after'))
        const health = (await (await get(gateway, '/health')).json()) as Json
        assert.equal(health.ready, false)
        assert.deepEqual(health.shared_state.limits, { engine: 'redis', state: 'down' })
        assert.match(health.not_ready_because.join(' '), /rate limiter \(Redis\)/)
      }
    } finally {
      await fleet.redisServer.start()
    }
    for (let i = 0; i < 50 && !fleet.instances.every((o) => o.redis.isReady()); i++) await sleep(100)
    assert.equal((await get(b, '/tokens?limit=1', key)).status, 200)
  })

  test('PostgreSQL down: keyed requests are 503 temporarily_unavailable, /health says why; back up, served again', async () => {
    const key = await keyWith()
    const path = `/tokens/${devnet.market.chainId}/${tokenAt(0).address}`
    assert.equal((await get(b, path, key)).status, 200)
    const script = join(root, 'scripts', 'postgres.sh')
    execFileSync('bash', [script, 'stop'])
    try {
      const res = await get(b, path, key)
      assert.equal(res.status, 503)
      assert.equal(((await res.json()) as Json).code, 'temporarily_unavailable')
      const health = (await (await get(b, '/health')).json()) as Json
      assert.equal(health.ready, false)
      assert.deepEqual(health.shared_state.store, { engine: 'postgres', state: 'down' })
    } finally {
      execFileSync('bash', [script, 'start'])
    }
    let status = 0
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await get(b, path, key)).status
      if (status !== 200) await sleep(200)
    }
    assert.equal(status, 200)
  })
})

describe('the settings npm start passes (startEmbeddedGateway)', () => {
  test('REDIS_URL, a postgres:// GATEWAY_DATABASE_URL, GATEWAY_PUBLIC_URL, GATEWAY_CURSOR_SECRET, GATEWAY_TRUST_PROXY reach the gateway', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-embedded-'))
    // A database of its own: this gateway follows the chain too (one indexer per database here).
    const own = await testEngines.find((e) => e.name === 'postgres')!.open()
    const embedded = await startEmbeddedGateway({
      devnet,
      root: dir,
      port: 0,
      databaseUrl: own.url,
      redisUrl: fleet.redisServer.url,
      publicUrl: 'https://gateway.example',
      cursorSecret: 'a cursor secret of at least 32 characters',
      trustProxy: ['127.0.0.1'],
    })
    try {
      const health = (await (await fetch(`${embedded.url}/health`)).json()) as Json
      assert.deepEqual(health.shared_state, { limits: { engine: 'redis', state: 'up' }, store: { engine: 'postgres', state: 'up' } })
      const problem = (await (await fetch(`${embedded.url}/tokens`)).json()) as Json
      assert.equal(problem.type, 'https://gateway.example/problems#missing_api_key')
      // The limits are Redis's: the development key's minute window is visible in Redis under the gateway's prefix.
      const res = await fetch(`${embedded.url}/tokens?limit=1`, {
        headers: { 'x-api-key': embedded.devKey, 'x-forwarded-for': '10.40.9.9' },
      })
      assert.equal(res.status, 200)
      assert.ok((await fleet.instances[0].redis.client.keys('gw:{gw}:minute:*')).length > 0)
      // Trusted proxy (127.0.0.1, the test's own address): the per-source ceiling counts the forwarded client.
      assert.ok((await fleet.instances[0].redis.client.keys('gw:{gw}:lookups:10.40.9.9*')).length > 0)
    } finally {
      await embedded.close()
      await own.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('several indexers on one PostgreSQL', () => {
  test('two following processes: one indexes, the other stands by; SIGKILLed, the indexer is replaced after its lease and the read model follows the chain', async () => {
    const own = await testEngines.find((e) => e.name === 'postgres')!.open()
    // Followed from the current head (a configured start block): what is tested is who writes, not the seeded history.
    const head = Number(await devnet.publicClient.getBlockNumber())
    const launchpad = { ...devnet.market.launchpad!, fromBlock: head }
    const follower = () =>
      spawnGatewayProcess({
        rpcUrl: devnet.anvil.url,
        chainId: devnet.market.chainId,
        launchpad,
        databaseUrl: own.url,
        redisUrl: fleet.redisServer.url,
        cursorSecret: fleet.cursorSecret,
        follow: true,
        indexerLeaseTtlMs: INDEXER_LEASE_TTL_MS,
      })
    const started = await Promise.allSettled([follower(), follower()])
    const processes = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
    try {
      assert.equal(processes.length, 2, started.map((r) => (r.status === 'rejected' ? String(r.reason) : '')).join('\n'))
      const indexerOf = async (p: GatewayProcess) => ((await (await fetch(`${p.url}/health`)).json()) as Json).chains[0].indexer
      // One leader, the lease's holder; the other stands by (each reports its role as of its last step, every 200 ms).
      const holderPid = async () =>
        (
          await own.query<{ holder: string }>('SELECT holder FROM indexer_leases WHERE chain_id = $1', [devnet.market.chainId])
        )[0]?.holder.split(':')[1]
      let roles: string[] = []
      for (let i = 0; i < 50; i++) {
        roles = await Promise.all(processes.map(async (p) => (await indexerOf(p)).role as string))
        if ([...roles].sort().join() === 'leader,standby' && (await holderPid()) === String(processes[roles.indexOf('leader')].child.pid))
          break
        await sleep(100)
      }
      assert.deepEqual([...roles].sort(), ['leader', 'standby'])
      const leader = processes[roles.indexOf('leader')]
      const standby = processes[roles.indexOf('standby')]
      assert.equal(await holderPid(), String(leader.child.pid))
      const [state] = await own.query<{ block_number: number }>('SELECT block_number FROM indexer_state WHERE chain_id = $1', [
        devnet.market.chainId,
      ])
      assert.ok(state.block_number >= head, 'the leader indexed to the head before it listened')

      await leader.kill()
      // Blocks after the leader died: only the standby, once it has taken over, can index them.
      await devnet.testClient.mine({ blocks: 3 })
      const target = Number(await devnet.publicClient.getBlockNumber())
      let indexer: Json
      for (let i = 0; i < 150; i++) {
        indexer = await indexerOf(standby)
        if (indexer.role === 'leader' && indexer.block_number >= target) break
        await sleep(100)
      }
      assert.equal(indexer.role, 'leader', 'the standby took over once the lease lapsed')
      assert.ok(indexer.block_number >= target)
      const [shared] = await own.query<{ block_number: number; block_hash: string }>(
        'SELECT block_number, block_hash FROM indexer_state WHERE chain_id = $1',
        [devnet.market.chainId],
      )
      const block = await devnet.publicClient.getBlock({ blockNumber: BigInt(shared.block_number) })
      assert.equal(shared.block_hash, block.hash.toLowerCase(), 'the read model is on the chain')
      assert.equal(await holderPid(), String(standby.child.pid))
    } finally {
      for (const p of processes) await p.kill()
      await own.close()
    }
  }, 120_000)
})
