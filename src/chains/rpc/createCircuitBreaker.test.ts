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
