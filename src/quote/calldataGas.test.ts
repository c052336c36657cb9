import assert from 'node:assert/strict'
import { test } from 'vitest'
import { calldataGas } from './calldataGas.ts'

test('4 gas per zero byte, 16 per non-zero byte', () => {
  assert.equal(calldataGas('0x'), 0)
  assert.equal(calldataGas('0x00ff'), 20)
  assert.equal(calldataGas('0x0000000001'), 32)
})

test('counts on the hex string whatever its case, and refuses odd-length hex', () => {
  assert.equal(calldataGas('0x00FFab000A'), 4 + 16 + 16 + 4 + 16)
  assert.throws(() => calldataGas('0x000'))
})
