import assert from 'node:assert/strict'
import { test } from 'vitest'
import { propAmmCurveOf } from './propAmmCurveOf.ts'

const s = (amountIn: bigint, amountOut: bigint | undefined) => ({ amountIn, amountOut })

test('leading zero outputs are dropped; the curve ends at the first zero or revert after them', () => {
  assert.deepEqual(propAmmCurveOf([s(1n, 0n), s(10n, 29n), s(100n, 290n), s(1000n, 0n), s(10_000n, 2_000n)]), {
    samples: [
      [10n, 29n],
      [100n, 290n],
    ],
  })
  assert.deepEqual(propAmmCurveOf([s(1n, undefined), s(10n, 29n), s(100n, undefined)]), { samples: [[10n, 29n]] })
  assert.deepEqual(propAmmCurveOf([s(1n, 0n), s(10n, undefined)]), { samples: [] })
})

test('equal outputs are kept (rounding at small sizes); a falling output is a problem that names the samples', () => {
  assert.deepEqual(propAmmCurveOf([s(1n, 3n), s(2n, 3n), s(3n, 4n)]), {
    samples: [
      [1n, 3n],
      [2n, 3n],
      [3n, 4n],
    ],
  })
  assert.deepEqual(propAmmCurveOf([s(1n, 3n), s(2n, 5n), s(3n, 4n)]), {
    problem: 'samples not monotone: 3 in pays 4, less than 5 for 2',
  })
})
