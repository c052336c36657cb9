import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, test } from 'vitest'
import { testEngines } from '../../../test/gateway/fixtures/testDatabases.ts'
import { type RedisServer, startRedisServer } from '../../../test/fixtures/startRedisServer.ts'
import { connectRedis, type SharedRedis } from '../../limits/redis/connectRedis.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { createRedisUsageSummaries } from './createRedisUsageSummaries.ts'
import { createRedisWeightedLimiter } from './createRedisWeightedLimiter.ts'
import type { PolicyCharge } from './LimitPolicy.ts'

// Usage summaries of a fleet (no chain, no server): two instances' limiters on one real
// redis-server count each decision in the script that takes it, two copiers write into one real
// PostgreSQL at once; a copy that fails leaves the counts in Redis for the next. The SIGKILL of a
// whole instance is test/scaling/killedGatewayProcess.test.ts.

let server: RedisServer
let store: SqlDatabase & { url: string }
const connections: SharedRedis[] = []
beforeAll(async () => {
  server = await startRedisServer()
  for (let i = 0; i < 2; i++) connections.push(await connectRedis({ url: server.url }))
  store = await testEngines.find((e) => e.name === 'postgres')!.open()
}, 120_000)
afterAll(async () => {
  for (const c of connections) await c.close()
  await server?.close()
  await store?.close()
})

/** 10 units a minute for one key: a request of 1 unit. */
const minute = (keyPrefix: string): PolicyCharge[] => [
  { policy: { kind: 'window', name: 'minute', key: `minute:${keyPrefix}`, limit: 10, windowMs: 60_000 }, group: 'plan', cost: 1 },
]

test('100 concurrent decisions over two instances: every admission and refusal counted once, copied exactly by two copiers at once, hours closed', async () => {
  const prefix = `t${randomBytes(4).toString('hex')}:`
  let t = Date.parse('2026-11-26T10:59:00Z')
  const now = () => t
  const limiters = connections.map((redis) => createRedisWeightedLimiter({ redis, prefix, now }))
  const copiers = connections.map((redis) => createRedisUsageSummaries({ redis, db: store, prefix, now, flushIntervalMs: 3_600_000 }))
  const key = randomBytes(6).toString('hex')
  const decisions = await Promise.all(
    Array.from({ length: 100 }, (_, i) => limiters[i % 2].consume(minute(key), { keyPrefix: key, units: 1 })),
  )
  assert.equal(decisions.filter((d) => d.allowed).length, 10)
  await Promise.all(copiers.map((c) => c.flush()))
  const hourly = () => store.query('SELECT hour, units, requests, rejected FROM usage_hourly WHERE key_prefix = $1 ORDER BY hour', [key])
  const daily = () => store.query('SELECT day, units, requests, rejected FROM usage_daily WHERE key_prefix = $1', [key])
  assert.deepEqual(await hourly(), [{ hour: '2026-11-26T10', units: 10, requests: 10, rejected: 90 }])
  assert.deepEqual(await daily(), [{ day: '2026-11-26', units: 10, requests: 10, rejected: 90 }])

  // The next hour: its counts go to its own row, the day sums both; the closed hour leaves Redis once copied.
  t += 61 * 60_000
  await limiters[0].consume(minute(key), { keyPrefix: key, units: 1 })
  await limiters[1].consume(minute(key), { keyPrefix: key, units: 1 })
  await Promise.all(copiers.map((c) => c.flush()))
  assert.deepEqual(await hourly(), [
    { hour: '2026-11-26T10', units: 10, requests: 10, rejected: 90 },
    { hour: '2026-11-26T12', units: 2, requests: 2, rejected: 0 },
  ])
  assert.deepEqual(await daily(), [{ day: '2026-11-26', units: 12, requests: 12, rejected: 90 }])
  const left = await connections[0].client.hGetAll(`${prefix}{gw}:usage:${key}`)
  assert.deepEqual(Object.keys(left).sort(), [`${Math.floor(t / 3_600_000)}:n`, `${Math.floor(t / 3_600_000)}:u`])
  assert.deepEqual(await copiers[1].load(key), { day: 12, month: 12 })
  for (const c of copiers) await c.close()
})

test('a copy whose database write fails removes nothing from Redis: the next copy (another instance) writes every count', async () => {
  const prefix = `t${randomBytes(4).toString('hex')}:`
  let t = Date.parse('2026-11-26T08:30:00Z')
  const now = () => t
  const limiter = createRedisWeightedLimiter({ redis: connections[0], prefix, now })
  const failing: SqlDatabase = { ...store, dialect: store.dialect, transaction: () => Promise.reject(new Error('database down')) }
  const broken = createRedisUsageSummaries({ redis: connections[0], db: failing, prefix, now, flushIntervalMs: 3_600_000 })
  const key = randomBytes(6).toString('hex')
  for (let i = 0; i < 3; i++) await limiter.consume(minute(key), { keyPrefix: key, units: 1 })
  t += 3_600_000
  await assert.rejects(broken.flush(), /database down/)
  const other = createRedisUsageSummaries({ redis: connections[1], db: store, prefix, now, flushIntervalMs: 3_600_000 })
  await other.flush()
  assert.deepEqual(await store.query('SELECT hour, units, requests FROM usage_hourly WHERE key_prefix = $1', [key]), [
    { hour: '2026-11-26T08', units: 3, requests: 3 },
  ])
  // Copied and closed: nothing of the key is left in Redis, and it is out of the index.
  assert.equal(await connections[0].client.exists(`${prefix}{gw}:usage:${key}`), 0)
  assert.equal(await connections[0].client.sIsMember(`${prefix}{gw}:usage-keys`, key), 0)
  await broken.close().catch(() => {})
  await other.close()
})
