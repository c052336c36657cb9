import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient } from 'viem'
import { startRedisServer, type RedisServer } from '../../test/fixtures/startRedisServer.ts'
import { createRpcTransport } from '../chains/rpc/createRpcTransport.ts'
import { connectRedis, type SharedRedis } from '../limits/redis/connectRedis.ts'
import { readinessReport } from './readinessReport.ts'

// The readiness report over a real Redis (stopped and started) and a real RPC transport (a node
// that answers and one that refuses connections), so the circuits open and close for real.

let redis: RedisServer
let shared: SharedRedis
let node: Server
let nodeUrl: string
let nodeUp = true
const fresh = {
  freshness: () => ({
    blockNumber: 100n,
    blockTimestamp: 1n,
    blockHash: '0x' as const,
    ageMs: 120,
    stale: false,
    lastError: undefined,
    reorgs: 0,
  }),
}
const solver = { status: () => ({ backend: 'native' as const, state: 'ready' as const, restarts: 0 }) }

beforeAll(async () => {
  redis = await startRedisServer()
  shared = await connectRedis({ url: redis.url })
  // A JSON-RPC node that answers eth_chainId, or a 503 while "down" (a node failure for the circuit).
  node = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (!nodeUp) return res.writeHead(503).end()
      const { id } = JSON.parse(body)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2105' }))
    })
  })
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
  nodeUrl = `http://127.0.0.1:${(node.address() as { port: number }).port}`
}, 120_000)
afterAll(async () => {
  await shared?.close()
  await redis?.close()
  await new Promise((resolve) => node?.close(resolve))
})

test('the embedded defaults: no Redis, no RPC nodes: both null, ready on the market and the solver alone', () => {
  const report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000 })
  assert.deepEqual(report, {
    ready: true,
    notReady: [],
    market: { blockNumber: 100, ageMs: 120, maxAgeMs: 10_000, fresh: true },
    solver: { backend: 'native', state: 'ready', restarts: 0 },
    redis: null,
    rpc: null,
    discovery: null,
    notCovered: [],
  })
})

test('Redis stopped: not ready (redisDisconnected) while it is down, ready again once the client has reconnected', async () => {
  assert.deepEqual(readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, redis: shared }).redis, { connected: true })
  await redis.stop()
  let report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, redis: shared })
  for (let i = 0; i < 50 && report.ready; i++) {
    await sleep(100)
    report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, redis: shared })
  }
  assert.equal(report.ready, false)
  assert.deepEqual(report.notReady, ['redisDisconnected'])
  assert.deepEqual(report.redis, { connected: false })
  await redis.start()
  for (let i = 0; i < 100 && !report.ready; i++) {
    await sleep(100)
    report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, redis: shared })
  }
  assert.equal(report.ready, true, 'reconnected without a restart')
  assert.deepEqual(report.redis, { connected: true })
})

test('RPC circuits: one dead node of two is reported open and the instance stays ready; every node open is not ready; a node back closes its circuit', async () => {
  const rpc = createRpcTransport({ urls: ['http://127.0.0.1:1', nodeUrl], timeoutMs: 2000, failureThreshold: 3, cooldownMs: 300 })
  const client = createPublicClient({ transport: rpc.transport })
  for (let i = 0; i < 3; i++) assert.equal(await client.getChainId(), 8453) // the dead node fails, the live one answers
  let report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, rpc })
  assert.equal(report.ready, true)
  assert.equal(report.rpc?.nodes[0].circuit, 'open')
  assert.equal(report.rpc?.nodes[1].circuit, 'closed')
  assert.ok((report.rpc?.nodes[0].retryInMs ?? 0) <= 300)
  assert.ok(!JSON.stringify(report).includes('127.0.0.1'), 'no URL in a public report')

  nodeUp = false
  for (let i = 0; i < 10 && report.rpc?.nodes.some((n) => n.circuit !== 'open'); i++) {
    await client.getChainId().catch(() => undefined)
    report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, rpc })
  }
  assert.deepEqual(
    report.rpc?.nodes.map((n) => n.circuit),
    ['open', 'open'],
  )
  assert.equal(report.ready, false)
  assert.deepEqual(report.notReady, ['rpcCircuitsOpen'])

  nodeUp = true
  await sleep(700) // past the live node's cooldown (doubled once at most): its trial call goes through
  for (let i = 0; i < 20 && report.rpc?.nodes[1].circuit !== 'closed'; i++) {
    await client.getChainId().catch(() => undefined)
    report = readinessReport({ market: fresh, solver, maxSnapshotAgeMs: 10_000, rpc })
    if (report.rpc?.nodes[1].circuit !== 'closed') await sleep(200)
  }
  assert.equal(report.rpc?.nodes[1].circuit, 'closed')
  assert.equal(report.ready, true)
})

test('every reason at once is listed: stale market, restarting solver, Redis down, every circuit open', () => {
  const report = readinessReport({
    market: { freshness: () => ({ ...fresh.freshness(), stale: true, ageMs: 20_000 }) },
    solver: { status: () => ({ backend: 'wasm', state: 'restarting', restarts: 2 }) },
    maxSnapshotAgeMs: 10_000,
    redis: { isReady: () => false },
    rpc: { nodes: () => [{ url: 'http://secret.example/KEY', state: 'open', retryInMs: 1234.4 }] },
  })
  assert.deepEqual(report.notReady, ['marketStale', 'solverRestarting', 'redisDisconnected', 'rpcCircuitsOpen'])
  assert.deepEqual(report.rpc, { nodes: [{ index: 0, circuit: 'open', retryInMs: 1234 }] })
  assert.equal(report.ready, false)
})

test("venues not followed are listed and do not make the instance unready; the cold start's progress does", () => {
  const notCovered = [{ dex: 'PANCAKE_INFINITY', what: 'Bin pools: no adapter' }]
  const discovery = (phase: 'scanning' | 'done') => ({
    phase,
    scannedBlocks: 250n,
    totalBlocks: 1000n,
    pools: 12,
    ranges: 3,
    rangeBlocks: 100n,
    etaMs: phase === 'scanning' ? 30_400 : undefined,
  })
  const done = readinessReport({ market: { ...fresh, discovery: () => discovery('done') }, solver, maxSnapshotAgeMs: 10_000, notCovered })
  assert.equal(done.ready, true)
  assert.deepEqual(done.notCovered, notCovered)
  const scanning = readinessReport({ market: { ...fresh, discovery: () => discovery('scanning') }, solver, maxSnapshotAgeMs: 10_000 })
  assert.deepEqual(scanning.notReady, ['coldStart'])
  assert.deepEqual(scanning.discovery, {
    phase: 'scanning',
    scannedBlocks: 250,
    totalBlocks: 1000,
    percent: 25,
    poolsFound: 12,
    ranges: 3,
    rangeBlocks: 100,
    etaSeconds: 30,
  })
})
