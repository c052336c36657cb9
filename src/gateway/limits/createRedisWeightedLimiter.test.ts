import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type RedisServer, startRedisServer } from '../../../test/fixtures/startRedisServer.ts'
import { connectRedis, type SharedRedis } from '../../limits/redis/connectRedis.ts'
import { SharedStateUnavailableError } from '../../limits/SharedStateUnavailableError.ts'
import { ceilings } from './ceilings.ts'
import { createRedisWeightedLimiter } from './createRedisWeightedLimiter.ts'
import type { LimitPolicy, PolicyCharge } from './LimitPolicy.ts'
import type { WeightedLimiter } from './WeightedLimiter.ts'

// Two gateway instances' limiters (each its own connection) on one real redis-server, on Redis's
// own clock: every safety ceiling of spec §8 admits exactly its number across both under 100-way
// concurrency; a killed instance's leases leave at their TTL while a live one's are renewed;
// Redis down refuses (never admits).

let server: RedisServer
const connections: SharedRedis[] = []
beforeAll(async () => {
  server = await startRedisServer()
  for (let i = 0; i < 3; i++) connections.push(await connectRedis({ url: server.url }))
}, 120_000)
afterAll(async () => {
  for (const c of connections) await c.close()
  await server?.close()
})

/** Two instances' limiters on their own connections, under one fresh prefix. */
const pair = (leaseTtlMs?: number): [WeightedLimiter, WeightedLimiter] => {
  const prefix = `t${randomBytes(4).toString('hex')}:`
  return [
    createRedisWeightedLimiter({ redis: connections[0], prefix, leaseTtlMs }),
    createRedisWeightedLimiter({ redis: connections[1], prefix, leaseTtlMs }),
  ]
}

/** Every number of the ceilings table as the policy it is: per minute a window, per day a calendar, in flight a concurrency. */
const everyCeiling: { name: string; policy: LimitPolicy }[] = Object.entries(ceilings).flatMap(([group, values]) =>
  Object.entries(values as Record<string, number>).map(([field, limit]) => {
    const name = `${group}.${field}`
    const key = `ceiling:${name}`
    const policy: LimitPolicy = /PerMinute$/.test(field)
      ? { kind: 'window', name, key, limit, windowMs: 60_000 }
      : /PerDay$/.test(field)
        ? { kind: 'calendar', name, key, limit, period: 'day' }
        : { kind: 'concurrency', name, key, limit }
    assert.ok(/PerMinute$|PerDay$|InFlight$|^inFlight$/.test(field), `a ceiling this test does not know: ${name}`)
    return { name, policy }
  }),
)

describe('every safety ceiling of spec §8, exact across two instances under 100-way concurrency', () => {
  test.each(everyCeiling)('$name', async ({ policy }) => {
    const [a, b] = pair()
    const limit = (policy as { limit: number }).limit
    const charge: PolicyCharge = { policy, group: 'ceiling', cost: 1 }
    let admitted = 0
    // Waves of 100 concurrent requests, alternating instances, until 100 past the ceiling.
    for (let sent = 0; sent < limit + 100; sent += 100) {
      const wave = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).consume([charge])))
      admitted += wave.filter((d) => d.allowed).length
    }
    assert.equal(admitted, limit)
  })
})

test("a killed instance's leases leave at their TTL; a live request's are renewed past it", async () => {
  const killed = await connectRedis({ url: server.url })
  const prefix = `t${randomBytes(4).toString('hex')}:`
  const ttl = 1_500
  const dying = createRedisWeightedLimiter({ redis: killed, prefix, leaseTtlMs: ttl })
  const live = createRedisWeightedLimiter({ redis: connections[0], prefix, leaseTtlMs: ttl })
  const slot = (key: string): PolicyCharge[] => [
    { policy: { kind: 'concurrency', name: 'in_flight', key, limit: 2 }, group: 'ceiling', cost: 1 },
  ]
  // The dying instance holds both slots of `a`; the live one holds one of `b` for longer than the TTL.
  assert.equal((await dying.consume(slot('a'))).allowed, true)
  assert.equal((await dying.consume(slot('a'))).allowed, true)
  const held = await live.consume(slot('b'))
  assert.equal(held.allowed, true)
  // Killed: its connection drops without a word (no release, no more renewals).
  killed.client.destroy()
  assert.equal((await live.consume(slot('a'))).allowed, false, 'both slots still leased')
  await sleep(ttl + 300)
  assert.equal((await live.consume(slot('a'))).allowed, true, "the killed instance's leases expired")
  // The live lease was renewed: still held, so one slot of b remains.
  assert.equal((await live.peek(slot('b')))[0].remaining, 1)
  if (held.allowed) await held.release()
  assert.equal((await live.peek(slot('b')))[0].remaining, 2)
})

test('Redis down: every decision is a SharedStateUnavailableError, nothing admitted; back up, decisions resume', async () => {
  const [a] = pair()
  const charge: PolicyCharge = { policy: { kind: 'window', name: 'm', key: 'k', limit: 5, windowMs: 60_000 }, group: 'plan', cost: 1 }
  assert.equal((await a.consume([charge])).allowed, true)
  await server.stop()
  try {
    await assert.rejects(a.consume([charge]), SharedStateUnavailableError)
    await assert.rejects(a.peek([charge]), SharedStateUnavailableError)
  } finally {
    await server.start()
  }
  // node-redis reconnects with its backoff (at most 2 s).
  for (let i = 0; i < 50 && !connections[0].isReady(); i++) await sleep(100)
  const after = await a.consume([charge])
  assert.equal(after.allowed, true)
  assert.equal(after.states[0].remaining, 3, 'the window survived the restart (append-only file)')
})
