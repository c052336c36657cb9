import type { Prng } from './createPrng.ts'

const MIN_SQRT_RATIO = 4295128739n
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

/**
 * A random initial price: a tick (often near 0, else anywhere in ±400000, so negative ticks are
 * common), a random fraction of the way to the next tick, and random low bits.
 *
 * @example
 * const sqrtPriceX96 = randomSqrtPriceX96({ prng })
 * // → e.g. 82705353758124214356371433341n, the first draw of createPrng({ seed: 42 })
 */
export function randomSqrtPriceX96({ prng }: { prng: Prng }): bigint {
  const tick = prng.chance(0.3) ? prng.int(-5000, 5000) : prng.int(-400_000, 400_000)
  // A float is fine here: any price inside the range is a valid state; the low bits are re-randomised.
  const approx = BigInt(Math.floor(2 ** 96 * Math.pow(1.0001, (tick + prng.next()) / 2)))
  const noisy = approx - (approx % 2n ** 32n) + prng.bigint(0n, 2n ** 32n - 1n)
  return noisy <= MIN_SQRT_RATIO ? MIN_SQRT_RATIO + 1n : noisy >= MAX_SQRT_RATIO ? MAX_SQRT_RATIO - 1n : noisy
}
