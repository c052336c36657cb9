import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { createClient } from '@redis/client'
import { type RedisServer, startRedisServer } from '../../../test/fixtures/startRedisServer.ts'
import { connectRedis } from './connectRedis.ts'

// A real redis-server (scripts/install-redis.sh): a wrong REDIS_URL fails at once, and a Redis that
// may evict keys is refused, before the service starts its (long) cold start.
let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.close()
})

test('a REDIS_URL where nothing listens fails the connection at once, naming the variable (no endless retry)', async () => {
  const started = Date.now()
  await assert.rejects(connectRedis({ url: 'redis://127.0.0.1:9' }), /REDIS_URL: cannot connect to Redis/)
  assert.ok(Date.now() - started < 3000, `failed in ${Date.now() - started} ms`)
})

test('maxmemory-policy: noeviction is accepted; any eviction policy is refused with how to fix it', async () => {
  const shared = await connectRedis({ url: redis.url })
  assert.equal(await shared.run((c) => c.ping()), 'PONG')
  await shared.close()
  const admin = createClient({ url: redis.url })
  await admin.connect()
  try {
    await admin.configSet('maxmemory-policy', 'volatile-ttl')
    await assert.rejects(connectRedis({ url: redis.url }), /maxmemory-policy is volatile-ttl; the rate limiter needs noeviction/)
    await admin.configSet('maxmemory-policy', 'allkeys-lru')
    await assert.rejects(connectRedis({ url: redis.url }), /maxmemory-policy is allkeys-lru/)
  } finally {
    await admin.configSet('maxmemory-policy', 'noeviction')
    await admin.close()
  }
})
