/**
 * The input sizes at which a source is sampled: `count` evenly spaced fractions of `totalIn`
 * (`totalIn·j/count` rounded down, j = 1..count), so the full amount is always one of them and the
 * curve's first segment starts near zero. Duplicates (tiny amounts) and zeros are dropped.
 *
 * @example
 * sampleAmounts(1000n, 4) // [250n, 500n, 750n, 1000n]
 * sampleAmounts(2n, 4)    // [1n, 2n]
 */
export function sampleAmounts(totalIn: bigint, count: number): bigint[] {
  const amounts = new Set<bigint>()
  for (let j = 1; j <= count; j++) {
    const amount = (totalIn * BigInt(j)) / BigInt(count)
    if (amount > 0n) amounts.add(amount)
  }
  return [...amounts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}
