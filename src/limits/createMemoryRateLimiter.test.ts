import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createMemoryRateLimiter } from './createMemoryRateLimiter.ts'

test('sliding window: limit admitted, the next refused until the oldest hit leaves; no reset on the minute', async () => {
  let t = 1_000_000
  const limiter = createMemoryRateLimiter({ limit: 3, windowSec: 60, now: () => t })
  assert.equal((await limiter.hit('a')).allowed, true) // t0
  t += 20_000
  assert.equal((await limiter.hit('a')).allowed, true) // t0+20
  t += 20_000
  assert.equal((await limiter.hit('a')).allowed, true) // t0+40
  t += 1_000
  const refused = await limiter.hit('a')
  assert.deepEqual(refused, { allowed: false, limit: 3, windowSec: 60, retryAfterSec: 19 })
  // Another key is independent.
  assert.equal((await limiter.hit('b')).allowed, true)
  // Refused hits are not recorded: at t0+60 exactly the first hit leaves, one slot frees.
  t = 1_000_000 + 60_000
  assert.equal((await limiter.hit('a')).allowed, true)
  assert.equal((await limiter.hit('a')).allowed, false)
  // Retry-After is never below 1 s, even when the oldest hit leaves within the second.
  t = 1_000_000 + 20_000 + 60_000 - 1
  const almost = await limiter.hit('a')
  assert.equal(almost.allowed, false)
  assert.equal(almost.allowed === false && almost.retryAfterSec, 1)
  t += 1
  assert.equal((await limiter.hit('a')).allowed, true)
})

test('boundaries: limit 1, and a ring that wraps many times stays exact', async () => {
  let t = 0
  const limiter = createMemoryRateLimiter({ limit: 5, windowSec: 1, now: () => t })
  let admitted = 0
  for (let i = 0; i < 10_000; i++) {
    t += 100 // 10 hits per second offered, 5 admitted per sliding second
    if ((await limiter.hit('k')).allowed) admitted++
  }
  // 1000 s offered; at most 5 per any 1 s window.
  assert.ok(admitted <= 5 * 1000 + 5 && admitted >= 5 * 1000 - 5, `admitted ${admitted}`)
  const one = createMemoryRateLimiter({ limit: 1, windowSec: 60, now: () => t })
  assert.equal((await one.hit('x')).allowed, true)
  assert.equal((await one.hit('x')).allowed, false)
  assert.throws(() => createMemoryRateLimiter({ limit: 0 }), RangeError)
})
