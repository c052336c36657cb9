import assert from 'node:assert/strict'
import { test } from 'vitest'
import { parseUint256 } from './parseUint256.ts'
import { RouterEncodingError } from './RouterEncodingError.ts'

const MAX = 2n ** 256n - 1n

test('uint256 bounds: 0, 1, max - 1 and max pass; max + 1 and negatives are refused naming the path', () => {
  for (const v of [0n, 1n, MAX - 1n, MAX]) {
    assert.equal(parseUint256({ value: v.toString(), path: 'x' }), v)
    assert.equal(parseUint256({ value: v, path: 'x' }), v)
  }
  assert.equal(parseUint256({ value: `000${MAX}`, path: 'x' }), MAX)
  for (const value of [(MAX + 1n).toString(), MAX + 1n, -1n, '-1', '1.5', '0x10', '', ' 1', 1, null, undefined]) {
    assert.throws(
      () => parseUint256({ value, path: 'permit.value' }),
      (e: unknown) => e instanceof RouterEncodingError && e.path === 'permit.value',
      String(value),
    )
  }
})
