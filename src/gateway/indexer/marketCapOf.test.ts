import assert from 'node:assert/strict'
import { test } from 'vitest'
import { marketCapOf } from './marketCapOf.ts'

test('market cap is supply × price in the paired asset, for either token order, rounded down', () => {
  const supply = 10n ** 27n
  // Price 1e-8 paired units per token unit: sqrt(1e-8) = 1e-4.
  const sqrt = 2n ** 96n / 10_000n
  const asToken0 = marketCapOf({ totalSupply: supply, sqrtPriceX96: sqrt, tokenIsToken0: true })
  assert.ok(asToken0 <= 10n ** 19n && asToken0 > 10n ** 19n - 10n ** 12n, `${asToken0}`)
  // As token1, the pool's price is the inverse: the same pool state with sqrt 1e4 prices it at 1e-8 too.
  const asToken1 = marketCapOf({ totalSupply: supply, sqrtPriceX96: 2n ** 96n * 10_000n, tokenIsToken0: false })
  assert.equal(asToken1, 10n ** 19n)
  assert.equal(marketCapOf({ totalSupply: supply, sqrtPriceX96: 0n, tokenIsToken0: true }), 0n)
})
