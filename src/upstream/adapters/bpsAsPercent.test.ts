import assert from 'node:assert/strict'
import { test } from 'vitest'
import { bpsAsPercent } from './bpsAsPercent.ts'

test('exact percents', () => {
  assert.deepEqual([1, 7, 10, 25, 29, 100, 150, 300, 1234].map(bpsAsPercent), [
    '0.01',
    '0.07',
    '0.1',
    '0.25',
    '0.29',
    '1',
    '1.5',
    '3',
    '12.34',
  ])
  assert.throws(() => bpsAsPercent(1.5), RangeError)
})
