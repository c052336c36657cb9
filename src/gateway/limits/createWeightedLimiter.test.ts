import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type RedisServer, startRedisServer } from '../../../test/fixtures/startRedisServer.ts'
import { connectRedis, type SharedRedis } from '../../limits/redis/connectRedis.ts'
import { createRedisWeightedLimiter } from './createRedisWeightedLimiter.ts'
import { createWeightedLimiter } from './createWeightedLimiter.ts'
import type { LimitPolicy, PolicyCharge } from './LimitPolicy.ts'
import type { WeightedLimiter } from './WeightedLimiter.ts'

// The same cases on both engines: in memory, and the Lua script on a real redis-server (its clock
// given, so the windows and the calendar boundaries are the test's; each limiter its own prefix).
let server: RedisServer
let redis: SharedRedis
beforeAll(async () => {
  server = await startRedisServer()
  redis = await connectRedis({ url: server.url })
}, 120_000)
afterAll(async () => {
  await redis?.close()
  await server?.close()
})

const engines: [string, (now: () => number) => WeightedLimiter][] = [
  ['memory', (now) => createWeightedLimiter({ now })],
  ['redis', (now) => createRedisWeightedLimiter({ redis, now, prefix: `t${randomBytes(4).toString('hex')}:` })],
]

const burst: LimitPolicy = { kind: 'burst', name: 'burst', key: 'k:burst', perSecond: 20 }
const minute: LimitPolicy = { kind: 'window', name: 'minute', key: 'k:minute', limit: 300, windowMs: 60_000 }
const day: LimitPolicy = { kind: 'calendar', name: 'day', key: 'k:day', limit: 25_000, period: 'day' }
const plan = (policy: LimitPolicy, cost: number): PolicyCharge => ({ policy, group: 'plan', cost })

describe.each(engines)('%s engine', (_, create) => {
  test('burst (GCRA): 20 units per second with a burst of 20; weighted charges; exact retry time', async () => {
    let t = Date.UTC(2026, 0, 1)
    const limiter = create(() => t)
    for (let i = 0; i < 10; i++) assert.equal((await limiter.consume([plan(burst, 2)])).allowed, true, `charge ${i}`)
    const refused = await limiter.consume([plan(burst, 2)])
    assert.equal(refused.allowed, false)
    assert.equal(!refused.allowed && refused.retryAfterMs, 100)
    assert.deepEqual(refused.states[0], { name: 'burst', group: 'plan', limit: 20, remaining: 0, resetSec: 1, windowSec: 1 })
    t += 99
    assert.equal((await limiter.consume([plan(burst, 2)])).allowed, false)
    t += 1
    const admitted = await limiter.consume([plan(burst, 2)])
    assert.equal(admitted.allowed, true)
    // A charge larger than the burst never fits.
    assert.equal((await limiter.consume([plan({ ...burst, key: 'other' }, 21)])).allowed, false)
  })

  test('sliding minute: exact, weighted; the retry time is when enough of the oldest charges leave', async () => {
    let t = Date.UTC(2026, 0, 1)
    const limiter = create(() => t)
    assert.equal((await limiter.consume([plan(minute, 100)])).allowed, true) // t0
    t += 10_000
    assert.equal((await limiter.consume([plan(minute, 150)])).allowed, true) // t0+10
    t += 10_000
    assert.equal((await limiter.consume([plan(minute, 50)])).allowed, true) // t0+20: 300 used
    const refused = await limiter.consume([plan(minute, 120)])
    // 120 more need 120 freed: the 100 of t0 is not enough, the 150 of t0+10 is, at t0+70.
    assert.equal(!refused.allowed && refused.retryAfterMs, 50_000)
    t += 40_000 // t0+60: the first charge leaves
    assert.equal((await limiter.consume([plan(minute, 120)])).allowed, false)
    assert.equal((await limiter.consume([plan(minute, 100)])).allowed, true)
    const [state] = await limiter.peek([plan(minute, 0)])
    assert.equal(state.remaining, 0)
    assert.equal(state.resetSec, 10)
  })

  test('calendar day and month reset at the UTC boundary; usage can be seeded from the summaries', async () => {
    let t = Date.UTC(2026, 0, 31, 23, 59, 59)
    const limiter = create(() => t)
    const month: LimitPolicy = { kind: 'calendar', name: 'month', key: 'k:month', limit: 10, period: 'month' }
    await limiter.seedCalendar({ ...day, limit: 10 }, 9)
    assert.equal((await limiter.consume([plan({ ...day, limit: 10 }, 1)])).allowed, true)
    const refused = await limiter.consume([plan({ ...day, limit: 10 }, 1)])
    assert.equal(!refused.allowed && refused.retryAfterMs, 1000)
    assert.equal((await limiter.consume([plan(month, 10)])).allowed, true)
    assert.equal((await limiter.consume([plan(month, 1)])).allowed, false)
    t += 1000 // 1 February, 00:00:00 UTC
    assert.equal((await limiter.consume([plan({ ...day, limit: 10 }, 10)])).allowed, true)
    assert.equal((await limiter.consume([plan(month, 10)])).allowed, true)
    assert.equal((await limiter.peek([plan(month, 0)]))[0].windowSec, 28 * 86_400)
    // December ends a year: its window is 31 days, and January of the next year starts afresh.
    t = Date.UTC(2026, 11, 31, 12)
    assert.equal((await limiter.peek([plan(month, 0)]))[0].windowSec, 31 * 86_400)
    assert.equal((await limiter.consume([plan(month, 10)])).allowed, true)
    t = Date.UTC(2027, 0, 1)
    assert.equal((await limiter.consume([plan(month, 10)])).allowed, true)
  })

  test('all or nothing: a refusal by any policy takes nothing from the others; leases are released once', async () => {
    const t = Date.UTC(2026, 0, 1)
    const limiter = create(() => t)
    const tinyDay: LimitPolicy = { ...day, limit: 3 }
    const inFlight: LimitPolicy = { kind: 'concurrency', name: 'holders', key: 'k:holders', limit: 2 }
    const charges = (cost: number): PolicyCharge[] => [
      plan(burst, cost),
      plan(minute, cost),
      plan(tinyDay, cost),
      { policy: inFlight, group: 'ceiling', cost: 1 },
    ]
    const first = await limiter.consume(charges(2))
    assert.equal(first.allowed, true)
    const refused = await limiter.consume(charges(2))
    assert.equal(refused.allowed, false)
    assert.deepEqual(!refused.allowed && refused.violated.map((v) => [v.name, v.group]), [['day', 'plan']])
    // Nothing was taken by the refusal: burst still at 18, minute at 298, one lease in flight.
    assert.deepEqual(
      (await limiter.peek(charges(0))).map((s) => s.remaining),
      [18, 298, 1, 1],
    )
    const second = await limiter.consume(charges(1))
    assert.equal(second.allowed, true)
    const third = await limiter.consume([{ policy: inFlight, group: 'ceiling', cost: 1 }])
    assert.deepEqual(!third.allowed && third.violated, [{ name: 'holders', group: 'ceiling', retryAfterMs: 1000 }])
    if (first.allowed) {
      await first.release()
      await first.release()
    }
    assert.equal((await limiter.peek([{ policy: inFlight, group: 'ceiling', cost: 1 }]))[0].remaining, 1)
  })
})

test('cost per request of a full policy set in memory, measured (the bench records the figures)', async () => {
  const limiter = createWeightedLimiter({})
  const charges: PolicyCharge[] = [
    plan({ ...burst, perSecond: 1e9 }, 2),
    plan({ ...minute, limit: 1e9 }, 2),
    plan({ ...day, limit: 1e9 }, 2),
    plan({ kind: 'calendar', name: 'month', key: 'k:month', limit: 1e9, period: 'month' }, 2),
    { policy: { kind: 'window', name: 'source', key: 's:1', limit: 1e9, windowMs: 60_000 }, group: 'ceiling', cost: 1 },
    { policy: { kind: 'concurrency', name: 'inflight', key: 'svc', limit: 1e9 }, group: 'ceiling', cost: 1 },
  ]
  const n = 20_000
  const started = process.hrtime.bigint()
  for (let i = 0; i < n; i++) {
    const d = await limiter.consume(charges)
    if (d.allowed) await d.release()
  }
  const perRequestUs = Number(process.hrtime.bigint() - started) / n / 1000
  console.log(`limiter: ${perRequestUs.toFixed(2)} µs per request (6 policies, in memory)`)
  assert.ok(perRequestUs > 0)
})
