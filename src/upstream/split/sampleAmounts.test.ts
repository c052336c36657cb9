import assert from 'node:assert/strict'
import { test } from 'vitest'
import { sampleAmounts } from './sampleAmounts.ts'

test('even fractions, the whole amount always last, no zeros or duplicates', () => {
  assert.deepEqual(sampleAmounts(1000n, 4), [250n, 500n, 750n, 1000n])
  assert.deepEqual(sampleAmounts(1000n, 1), [1000n])
  assert.deepEqual(sampleAmounts(10n, 3), [3n, 6n, 10n])
  assert.deepEqual(sampleAmounts(2n, 4), [1n, 2n])
  assert.deepEqual(sampleAmounts(1n, 6), [1n])
  const huge = 2n ** 256n - 1n
  assert.equal(sampleAmounts(huge, 6).at(-1), huge)
})
