import assert from 'node:assert/strict'
import { test } from 'vitest'
import { decimalRangePattern } from './decimalRangePattern.ts'

const UINT256_MAX = 2n ** 256n - 1n

/** Every value near the edges of `max`'s digits: each digit moved by ±1, and the neighbours of max. */
function probes(max: bigint): bigint[] {
  const digits = max.toString()
  const values = new Set<bigint>([
    0n,
    1n,
    2n,
    9n,
    10n,
    11n,
    max - 1n,
    max,
    max + 1n,
    max * 10n,
    10n ** BigInt(digits.length),
    10n ** BigInt(digits.length - 1),
  ])
  for (let i = 0; i < digits.length; i++) {
    for (const delta of [-1, 1]) {
      const d = Number(digits[i]) + delta
      if (d < 0 || d > 9) continue
      const text = `${digits.slice(0, i)}${d}${digits.slice(i + 1)}`
      values.add(BigInt(text))
      values.add(BigInt(`${digits.slice(0, i)}${d}${'9'.repeat(digits.length - 1 - i)}`))
      values.add(BigInt(`${digits.slice(0, i)}${d}${'0'.repeat(digits.length - 1 - i)}`))
    }
  }
  return [...values].filter((v) => v >= 0n)
}

for (const max of [1n, 9n, 10n, 99n, 100n, 255n, 1000n, 10_000n, 9_007_199_254_740_991n, UINT256_MAX]) {
  for (const min of [0n, 1n] as const) {
    test(`decimalRangePattern matches exactly ${min}..${max}, leading zeros allowed`, () => {
      const pattern = new RegExp(decimalRangePattern({ min, max }), 'u')
      for (const value of probes(max)) {
        const inRange = value >= min && value <= max
        for (const text of [value.toString(), `0${value}`, `000${value}`]) {
          assert.equal(pattern.test(text), inRange, `${text} in ${min}..${max}`)
        }
      }
      for (const text of ['', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '0x1', '١'])
        assert.equal(pattern.test(text), false, JSON.stringify(text))
    })
  }
}

test('random uint256 values and their neighbours, with and without leading zeros', () => {
  const pattern = new RegExp(decimalRangePattern({ min: 1n, max: UINT256_MAX }), 'u')
  let x = 0x9e3779b97f4a7c15n
  for (let i = 0; i < 2000; i++) {
    // xorshift-style mixing over 320 bits: values of every length up to and past 2^256.
    x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 320n
    const value = x >> BigInt(i % 320)
    assert.equal(pattern.test(value.toString()), value >= 1n && value <= UINT256_MAX, value.toString())
    assert.equal(pattern.test(`00${value}`), value >= 1n && value <= UINT256_MAX)
  }
})

test('the pattern is plain enough for Python re too: no lookaround, no flags, no named groups', () => {
  const source = decimalRangePattern({ min: 0n, max: UINT256_MAX })
  assert.doesNotMatch(source, /\(\?[=!<]|\(\?[a-z]/)
})
