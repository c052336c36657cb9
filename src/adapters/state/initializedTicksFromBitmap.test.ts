import assert from 'node:assert/strict'
import { test } from 'vitest'
import { initializedTicksFromBitmap } from './initializedTicksFromBitmap.ts'

test('initializedTicksFromBitmap: compressed and raw ticks, negative words, ascending', () => {
  const words = new Map([
    [0, (1n << 0n) | (1n << 255n)],
    [-1, 1n << 255n],
    [-3467, 1n << 8n],
  ])
  assert.deepEqual(initializedTicksFromBitmap({ words, tickSpacing: 1 }), [-887544, -1, 0, 255])
  assert.deepEqual(initializedTicksFromBitmap({ words: new Map([[-1, 1n << 255n]]), tickSpacing: 60 }), [-60])
})
