import assert from 'node:assert/strict'
import { test } from 'vitest'
import { parseUpstreamAmount } from './parseUpstreamAmount.ts'
import { UpstreamError } from './UpstreamError.ts'

const invalid = (value: unknown, options: { allowFractionalNumber?: boolean } = {}) =>
  assert.throws(
    () => parseUpstreamAmount({ value, field: 'f', ...options }),
    (e) => e instanceof UpstreamError && e.kind === 'invalid response' && e.message.startsWith('f: '),
  )

test('decimal strings and safe integers are exact; the uint256 bounds hold', () => {
  assert.equal(parseUpstreamAmount({ value: '0', field: 'f' }), 0n)
  assert.equal(parseUpstreamAmount({ value: '62131879850006790961', field: 'f' }), 62131879850006790961n)
  assert.equal(parseUpstreamAmount({ value: (2n ** 256n - 1n).toString(), field: 'f' }), 2n ** 256n - 1n)
  assert.equal(parseUpstreamAmount({ value: 129211, field: 'f' }), 129211n)
  invalid((2n ** 256n).toString())
})

test('anything inexact is refused, never rounded: floats, exponents, negatives, hex, numbers past 2^53', () => {
  for (const value of ['1e18', '-1', '1.5', '0x10', ' 1', '', 1.5, -1, 2 ** 53, Number.NaN, null, undefined, {}, [], true]) invalid(value)
})

test('a fractional JSON number is gas rounded up only when the caller says so (Odos)', () => {
  assert.equal(parseUpstreamAmount({ value: 187465.2, field: 'f', allowFractionalNumber: true }), 187466n)
  invalid(-0.5, { allowFractionalNumber: true })
  invalid(Number.POSITIVE_INFINITY, { allowFractionalNumber: true })
})
