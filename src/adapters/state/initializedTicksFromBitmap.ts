export type InitializedTicksFromBitmapParameters = {
  /** Bitmap words by word position (only non-zero words need be present). */
  words: ReadonlyMap<number, bigint>
  /**
   * What one bit stands for: V3/V4 bitmaps index compressed ticks (tick / tickSpacing), so pass the
   * spacing; Algebra's tick table is indexed by the raw tick, so pass 1.
   */
  tickSpacing: number
}

/**
 * Lists the ticks whose bits are set, ascending (bit b of word w is tick (256·w + b)·tickSpacing).
 *
 * @example
 * initializedTicksFromBitmap({ words: new Map([[-1, 1n << 255n]]), tickSpacing: 60 }) // [-60]
 */
export function initializedTicksFromBitmap({ words, tickSpacing }: InitializedTicksFromBitmapParameters): number[] {
  const ticks: number[] = []
  for (const [wordPos, word] of [...words.entries()].sort(([a], [b]) => a - b)) {
    for (let bit = 0; bit < 256 && word >> BigInt(bit) !== 0n; bit++) {
      if ((word >> BigInt(bit)) & 1n) ticks.push((wordPos * 256 + bit) * tickSpacing)
    }
  }
  return ticks
}
