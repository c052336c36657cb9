/** A seeded pseudo-random generator (sfc32) so that a failing case reproduces from its seed. */
export type Prng = {
  /** Uniform in [0, 1). */
  next: () => number
  /** Uniform integer in [min, max] (inclusive). */
  int: (min: number, max: number) => number
  /** Uniform bigint in [min, max] (inclusive). */
  bigint: (min: bigint, max: bigint) => bigint
  /** Log-uniform bigint in [min, max]: as likely 1..10 as 10^20..10^21. */
  logBigint: (min: bigint, max: bigint) => bigint
  pick: <T>(items: readonly T[]) => T
  /** Two items at different positions (the first uniform, the second uniform among the rest). */
  pickTwo: <T>(items: readonly T[]) => [T, T]
  chance: (p: number) => boolean
}

export type CreatePrngParameters = { seed: number }

/**
 * sfc32 seeded through splitmix32; every bigint draw is built from 32-bit words, never a float.
 *
 * @example
 * const prng = createPrng({ seed: 42 })
 * const amount = prng.logBigint(1n, 10n ** 24n) // → 531562n, the first draw for seed 42 (the same on every run)
 */
export function createPrng({ seed }: CreatePrngParameters): Prng {
  let s = seed >>> 0
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
  let a = splitmix(),
    b = splitmix(),
    c = splitmix(),
    d = splitmix()
  const u32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0
    d = (d + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t
  }
  for (let i = 0; i < 12; i++) u32()
  const next = () => u32() / 2 ** 32
  const bigint = (min: bigint, max: bigint): bigint => {
    if (max < min) throw new Error(`empty range [${min}, ${max}]`)
    const span = max - min + 1n
    const bits = span.toString(2).length + 64
    let r = 0n
    for (let i = 0; i < bits; i += 32) r = (r << 32n) | BigInt(u32())
    return min + (r % span)
  }
  const logBigint = (min: bigint, max: bigint): bigint => {
    const lo = min < 1n ? 1n : min
    // Pick a decimal magnitude uniformly, then a uniform value within it (clamped to the range).
    const digitsLo = lo.toString().length
    const digitsHi = max.toString().length
    const digits = digitsLo + Math.floor(next() * (digitsHi - digitsLo + 1))
    const from = digits === digitsLo ? lo : 10n ** BigInt(digits - 1)
    const to = digits === digitsHi ? max : 10n ** BigInt(digits) - 1n
    return min < 1n && next() < 0.01 ? 0n : bigint(from, to < from ? from : to)
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  return {
    next,
    int,
    bigint,
    logBigint,
    pick: (items) => items[Math.floor(next() * items.length)],
    pickTwo: (items) => {
      const a = int(0, items.length - 1)
      return [items[a], items[(a + int(1, items.length - 1)) % items.length]]
    },
    chance: (p) => next() < p,
  }
}
