import type { Prng } from './createPrng.ts'

const MIN_TICK = -887272
const MAX_TICK = 887272

export type RandomPosition = { tickLower: number; tickUpper: number; liquidity: bigint }

export type RandomPositionsParameters = { prng: Prng; currentTick: number; tickSpacing: number }

/**
 * Draws 2..30 positions around the current tick: half of them narrow (1..4 spacings, so swaps cross
 * many initialized ticks), some medium, some wide, a few full range; some entirely out of range.
 *
 * @example
 * const positions = randomPositions({ prng, currentTick: -1234, tickSpacing: 10 })
 * // → 8 positions with createPrng({ seed: 42 }), the first { tickLower: -1540, tickUpper: -1410, liquidity: 9869178339039n }
 */
export function randomPositions({ prng, currentTick, tickSpacing }: RandomPositionsParameters): RandomPosition[] {
  const minUsable = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
  const maxUsable = Math.floor(MAX_TICK / tickSpacing) * tickSpacing
  const count = prng.int(2, 30)
  const positions: RandomPosition[] = []
  for (let i = 0; i < count; i++) {
    const r = prng.next()
    const width = r < 0.5 ? prng.int(1, 4) : r < 0.8 ? prng.int(5, 100) : r < 0.95 ? prng.int(100, 5000) : Infinity
    let tickLower: number
    let tickUpper: number
    if (width === Infinity) {
      ;[tickLower, tickUpper] = [minUsable, maxUsable]
    } else {
      const spread = Math.max(width, 20) * tickSpacing * 2
      const center = currentTick + Math.round((prng.next() * 2 - 1) * spread)
      tickLower = Math.floor((center - (width * tickSpacing) / 2) / tickSpacing) * tickSpacing
      tickLower = Math.min(Math.max(tickLower, minUsable), maxUsable - tickSpacing)
      tickUpper = Math.min(tickLower + width * tickSpacing, maxUsable)
    }
    positions.push({ tickLower, tickUpper, liquidity: prng.logBigint(1_000n, 10n ** 24n) })
  }
  return positions
}
