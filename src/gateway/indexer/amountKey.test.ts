import assert from 'node:assert/strict'
import { test } from 'vitest'
import { AMOUNT_KEY_DIGITS, amountKey } from './amountKey.ts'

test('keys order as the amounts do, at 0, 1, 9/10, and 2^256-1; negative amounts are refused', () => {
  const amounts = [0n, 1n, 9n, 10n, 99n, 100n, 10n ** 18n, 2n ** 255n, 2n ** 256n - 1n]
  const keys = amounts.map(amountKey)
  assert.ok(keys.every((k) => k.length === AMOUNT_KEY_DIGITS))
  assert.deepEqual([...keys].sort(), keys)
  assert.equal(BigInt(amountKey(2n ** 256n - 1n)), 2n ** 256n - 1n)
  assert.throws(() => amountKey(-1n), RangeError)
})
