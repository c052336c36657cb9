import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createTokenBucket } from './createTokenBucket.ts'

test('a bucket starts full, gives its burst at once, then one token per 1/rate seconds', () => {
  let now = 0
  const bucket = createTokenBucket({ ratePerSec: 5, capacity: 5, now: () => now })
  assert.equal(bucket.available(), 5)
  for (let i = 0; i < 5; i++) assert.equal(bucket.tryTake(), true)
  assert.equal(bucket.tryTake(), false)
  assert.equal(bucket.msUntil(), 200)
  now = 199
  assert.equal(bucket.tryTake(), false)
  now = 200
  assert.equal(bucket.tryTake(), true)
  now = 10_000
  assert.equal(bucket.available(), 5, 'never above its capacity however long it idles')
})

test('tryTake(n) takes all n or none; msUntil says when n are there', () => {
  let now = 0
  const bucket = createTokenBucket({ ratePerSec: 1, capacity: 2, now: () => now })
  assert.equal(bucket.tryTake(3), false)
  assert.equal(bucket.msUntil(3), Infinity, 'more than the capacity never comes')
  assert.equal(bucket.tryTake(2), true)
  assert.equal(bucket.msUntil(2), 2000)
  now = 1000
  assert.equal(bucket.tryTake(2), false)
  assert.equal(bucket.available(), 1, 'a failed take takes nothing')
})

test('a fractional rate (one request every two seconds) and bad parameters', () => {
  let now = 0
  const bucket = createTokenBucket({ ratePerSec: 0.5, capacity: 1, now: () => now })
  assert.equal(bucket.tryTake(), true)
  now = 1999
  assert.equal(bucket.tryTake(), false)
  now = 2000
  assert.equal(bucket.tryTake(), true)
  assert.throws(() => createTokenBucket({ ratePerSec: 0, capacity: 1 }), RangeError)
  assert.throws(() => createTokenBucket({ ratePerSec: 1, capacity: 0 }), RangeError)
})
