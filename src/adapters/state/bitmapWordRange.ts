/** Usable tick range of every concentrated-liquidity pool here (TickMath MIN_TICK / MAX_TICK). */
const MIN_TICK = -887272
const MAX_TICK = 887272

export type BitmapWordRangeParameters = { tickSpacing: number }
export type BitmapWordRangeReturnType = { minWord: number; maxWord: number }

/**
 * The bitmap word positions that can hold a usable tick: words of floor(tick / tickSpacing) for
 * ticks in [MIN_TICK, MAX_TICK] (pass tickSpacing 1 for Algebra's raw-tick table).
 *
 * @example
 * bitmapWordRange({ tickSpacing: 60 }) // { minWord: -58, maxWord: 57 }
 */
export function bitmapWordRange({ tickSpacing }: BitmapWordRangeParameters): BitmapWordRangeReturnType {
  return {
    minWord: Math.floor(Math.floor(MIN_TICK / tickSpacing) / 256),
    maxWord: Math.floor(Math.floor(MAX_TICK / tickSpacing) / 256),
  }
}
