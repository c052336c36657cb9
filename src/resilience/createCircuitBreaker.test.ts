import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createCircuitBreaker } from './createCircuitBreaker.ts'

test('opens after the threshold of failures in a row, lets one trial through per cooldown, doubles it on a failed trial, closes on success', () => {
  let t = 0
  const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 1000, maxCooldownMs: 3000, now: () => t })
  for (let i = 0; i < 2; i++) {
    assert.equal(breaker.allow(), true)
    breaker.failed()
  }
  assert.equal(breaker.state(), 'closed', 'two failures: still closed')
  breaker.succeeded()
  for (let i = 0; i < 3; i++) breaker.failed()
  assert.equal(breaker.state(), 'open', 'a success resets the count; three in a row open it')
  assert.equal(breaker.allow(), false)
  assert.equal(breaker.retryInMs(), 1000)
  t = 999
  assert.equal(breaker.allow(), false)
  t = 1000
  assert.equal(breaker.state(), 'open', 'past the cooldown it stays open until a call is let through')
  assert.equal(breaker.allow(), true, 'the trial')
  assert.equal(breaker.state(), 'halfOpen')
  assert.equal(breaker.allow(), false, 'one trial at a time')
  breaker.failed()
  assert.equal(breaker.state(), 'open')
  t = 2999
  assert.equal(breaker.allow(), false, 'cooldown doubled to 2000')
  t = 3000
  assert.equal(breaker.allow(), true)
  breaker.failed()
  t = 5999
  assert.equal(breaker.allow(), false, 'capped at 3000')
  t = 6000
  assert.equal(breaker.allow(), true)
  breaker.succeeded()
  assert.equal(breaker.state(), 'closed')
  assert.equal(breaker.allow(), true)
  breaker.failed()
  assert.equal(breaker.state(), 'closed', 'closing resets the count and the cooldown')
  assert.throws(() => createCircuitBreaker({ failureThreshold: 0 }), RangeError)
})

test('a Retry-After opens it at once for that long (capped at maxCooldownMs); cancel releases an unused trial', () => {
  let t = 0
  const breaker = createCircuitBreaker({ failureThreshold: 5, cooldownMs: 30_000, maxCooldownMs: 60_000, now: () => t })
  breaker.failed(5_000)
  assert.equal(breaker.state(), 'open', 'one failure with a Retry-After is enough')
  assert.equal(breaker.retryInMs(), 5_000)
  t = 5_000
  assert.equal(breaker.allow(), true)
  assert.equal(breaker.state(), 'halfOpen')
  breaker.cancel()
  assert.equal(breaker.state(), 'open', 'no trial under way: open until the next call tries')
  assert.equal(breaker.allow(), true, 'the trial was not made: another may go')
  breaker.failed(10 * 60_000)
  assert.equal(breaker.retryInMs(), 60_000, 'a failed trial doubles the cooldown, a Retry-After is capped: the longer holds')
  t = 65_000
  assert.equal(breaker.allow(), true)
  breaker.succeeded()
  assert.equal(breaker.state(), 'closed')
  assert.equal(breaker.retryInMs(), 0)
})

test('a Retry-After shorter than the cooldown a failed trial earns does not shorten it', () => {
  let t = 0
  const breaker = createCircuitBreaker({ failureThreshold: 1, cooldownMs: 1000, maxCooldownMs: 8000, now: () => t })
  breaker.failed()
  t = 1000
  assert.equal(breaker.allow(), true)
  breaker.failed(100)
  assert.equal(breaker.retryInMs(), 2000)
  assert.throws(() => createCircuitBreaker({ cooldownMs: 0 }), RangeError)
  assert.throws(() => createCircuitBreaker({ cooldownMs: 5000, maxCooldownMs: 1000 }), RangeError)
})
