import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createCircuitBreaker } from './createCircuitBreaker.ts'

test('five failures in a row open it for openMs; then one trial call: success closes it', () => {
  let now = 0
  const breaker = createCircuitBreaker({ failureThreshold: 5, openMs: 30_000, now: () => now })
  for (let i = 0; i < 4; i++) {
    assert.equal(breaker.allow(), true)
    breaker.failure()
  }
  assert.equal(breaker.state(), 'closed')
  breaker.allow()
  breaker.failure()
  assert.equal(breaker.state(), 'open')
  assert.equal(breaker.allow(), false)
  assert.equal(breaker.msUntilRetry(), 30_000)
  now = 30_000
  assert.equal(breaker.state(), 'half-open')
  assert.equal(breaker.allow(), true, 'one trial call')
  assert.equal(breaker.allow(), false, 'only one at a time')
  breaker.success()
  assert.equal(breaker.state(), 'closed')
  assert.equal(breaker.allow(), true)
})

test('a failed trial opens it again at once; a success in between resets the count', () => {
  let now = 0
  const breaker = createCircuitBreaker({ failureThreshold: 3, openMs: 1000, now: () => now })
  breaker.failure()
  breaker.failure()
  breaker.success()
  breaker.failure()
  breaker.failure()
  assert.equal(breaker.state(), 'closed', 'not five in a row')
  breaker.failure()
  assert.equal(breaker.state(), 'open')
  now = 1000
  assert.equal(breaker.allow(), true)
  breaker.failure()
  assert.equal(breaker.state(), 'open')
  assert.equal(breaker.msUntilRetry(), 1000)
})

test('a Retry-After opens it for that long at once (capped); cancel releases an unused trial', () => {
  let now = 0
  const breaker = createCircuitBreaker({ maxCooldownMs: 60_000, now: () => now })
  breaker.failure(5_000)
  assert.equal(breaker.state(), 'open')
  assert.equal(breaker.msUntilRetry(), 5_000)
  now = 5_000
  assert.equal(breaker.allow(), true)
  breaker.cancel()
  assert.equal(breaker.allow(), true, 'the trial was not made: another may go')
  breaker.failure(10 * 60_000)
  assert.equal(breaker.msUntilRetry(), 60_000, 'a cooldown is capped')
})
