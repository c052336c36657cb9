import assert from 'node:assert/strict'
import { test } from 'vitest'
import { applyIntegratorFee } from './applyIntegratorFee.ts'

test('fee and minimum are floored exactly as the router floors them', () => {
  assert.deepEqual(applyIntegratorFee({ totalOut: 10_001n, feeBps: 30, slippageBps: 50 }), {
    feeAmount: 30n,
    amountOut: 9_971n,
    minAmountOut: 9_921n,
  })
  // A fee that floors to zero is no fee; 100 % slippage allows zero.
  assert.deepEqual(applyIntegratorFee({ totalOut: 333n, feeBps: 30, slippageBps: 10_000 }), {
    feeAmount: 0n,
    amountOut: 333n,
    minAmountOut: 0n,
  })
  // Boundaries: no fee, the whole output as fee, no slippage.
  assert.deepEqual(applyIntegratorFee({ totalOut: 10n ** 30n, feeBps: 0, slippageBps: 0 }), {
    feeAmount: 0n,
    amountOut: 10n ** 30n,
    minAmountOut: 10n ** 30n,
  })
  assert.deepEqual(applyIntegratorFee({ totalOut: 7n, feeBps: 10_000, slippageBps: 0 }), { feeAmount: 7n, amountOut: 0n, minAmountOut: 0n })
  assert.deepEqual(applyIntegratorFee({ totalOut: 9_999n, feeBps: 1, slippageBps: 1 }), {
    feeAmount: 0n,
    amountOut: 9_999n,
    minAmountOut: 9_998n,
  })
})

test('fee + recipient share always equal the total, and the minimum never exceeds the share', () => {
  for (let total = 0n; total < 3_000n; total += 7n) {
    for (const feeBps of [0, 1, 25, 9_999, 10_000]) {
      const { feeAmount, amountOut, minAmountOut } = applyIntegratorFee({ totalOut: total, feeBps, slippageBps: 37 })
      assert.equal(feeAmount + amountOut, total)
      assert.ok(feeAmount * 10_000n <= total * BigInt(feeBps))
      assert.ok(minAmountOut <= amountOut)
    }
  }
})
