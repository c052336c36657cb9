import assert from 'node:assert/strict'
import { test } from 'vitest'
import { interpolateCurve } from './interpolateCurve.ts'

const p = (x: number, y: number) => ({ x: BigInt(x), y: BigInt(y) })

test('exact at the points, the chord rounded down between them (negative values too), undefined outside', () => {
  const curve = [p(0, -10), p(10, 15), p(20, 25)]
  assert.equal(interpolateCurve(curve, 0n), -10n)
  assert.equal(interpolateCurve(curve, 10n), 15n)
  assert.equal(interpolateCurve(curve, 20n), 25n)
  assert.equal(interpolateCurve(curve, 3n), -3n) // -10 + 25·3/10 = -2.5 → -3
  assert.equal(interpolateCurve(curve, 15n), 20n)
  assert.equal(interpolateCurve(curve, 13n), 18n) // 15 + 10·3/10 = 18
  assert.equal(interpolateCurve(curve, 21n), undefined)
  assert.equal(interpolateCurve(curve, -1n), undefined)
})
