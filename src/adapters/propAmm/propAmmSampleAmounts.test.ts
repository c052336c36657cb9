import assert from 'node:assert/strict'
import { test } from 'vitest'
import { propAmmSampleAmounts } from './propAmmSampleAmounts.ts'

test('log-spaced whole-token sizes and reserve fractions, ascending, distinct, above zero', () => {
  const amounts = propAmmSampleAmounts({ decimals: 6, reserveIn: 1_000_000_000_000n })
  for (let k = 2; k <= 10; k++) assert.ok(amounts.includes(10n ** BigInt(k)), `10^${k}`)
  for (const ppm of [1_000n, 10_000n, 500_000n, 990_000n]) assert.ok(amounts.includes((1_000_000_000_000n * ppm) / 1_000_000n))
  assert.ok(amounts.every((a, i) => a > 0n && (i === 0 || a > amounts[i - 1])))
  // 10^4 USDC (10^10 raw) is also 1 % of the reserve: one sample, not two.
  assert.equal(amounts.filter((a) => a === 10n ** 10n).length, 1)
})

test('no sample above the venue limit; sizes below one raw unit are left out', () => {
  const amounts = propAmmSampleAmounts({ decimals: 2, reserveIn: 0n, maxIn: 5_000n })
  assert.deepEqual(amounts, [1n, 10n, 100n, 1_000n])
})
