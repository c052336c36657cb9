import assert from 'node:assert/strict'
import { test } from 'vitest'
import { hexByteLength } from './hexByteLength.ts'

test('whole bytes of 0x hex count; odd digits, non-hex and non-strings are -1', () => {
  assert.equal(hexByteLength('0x'), 0)
  assert.equal(hexByteLength('0xABcd'), 2)
  assert.equal(hexByteLength(`0x${'00'.repeat(32)}`), 32)
  for (const value of ['0xabc', 'abcd', '0xzz', '0X00', '', 12, null, undefined, ['0x00']])
    assert.equal(hexByteLength(value), -1, String(value))
})
