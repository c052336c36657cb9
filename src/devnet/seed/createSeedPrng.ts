export type CreateSeedPrngParameters = { seed: number }

/**
 * mulberry32: a tiny deterministic generator for the market's shape (price offsets), so the same
 * seed always gives the same market. Returns uniform floats in [0, 1).
 *
 * @example
 * const next = createSeedPrng({ seed: 8453 })
 * // next() → 0.5720452310051769, then 0.0874029581900686, … (the same for every run with seed 8453)
 * const offset = (next() * 2 - 1) * 0.003 // → ≈ 0.000432 on the first call (+0.04 %)
 */
export function createSeedPrng({ seed }: CreateSeedPrngParameters): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
