import assert from 'node:assert/strict'
import { test } from 'vitest'
import { addressPattern } from './addressPattern.ts'

const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const SENTINEL = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

test('matches the addresses in every letter case and nothing else', () => {
  const pattern = new RegExp(addressPattern([WETH, SENTINEL]), 'u')
  for (const a of [WETH, SENTINEL]) {
    for (const text of [a, a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`]) assert.equal(pattern.test(text), true, text)
  }
  for (const text of [
    `${WETH}0`,
    WETH.slice(0, -1),
    `0X${WETH.slice(2)}`,
    ` ${WETH}`,
    '0x5fbdb2315678afecb367f032d93f642f64180aa4',
    '0x0000000000000000000000000000000000000000',
  ]) {
    assert.equal(pattern.test(text), false, text)
  }
})

test('refuses what is not an address, and an empty list', () => {
  assert.throws(() => addressPattern([]), RangeError)
  assert.throws(() => addressPattern(['0x12' as `0x${string}`]), RangeError)
})
