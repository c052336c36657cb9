import type { BlockRange } from './store/MarketStore.ts'

/**
 * The same blocks as `ranges`, as the fewest disjoint ranges in block order (overlapping and
 * adjacent ranges joined; empty ones dropped).
 *
 * @example
 * mergeBlockRanges([{ fromBlock: 5n, toBlock: 9n }, { fromBlock: 1n, toBlock: 4n }]) // [{ fromBlock: 1n, toBlock: 9n }]
 */
export function mergeBlockRanges(ranges: readonly BlockRange[]): BlockRange[] {
  const sorted = ranges
    .filter((r) => r.toBlock >= r.fromBlock)
    .sort((a, b) => (a.fromBlock < b.fromBlock ? -1 : a.fromBlock > b.fromBlock ? 1 : 0))
  const merged: BlockRange[] = []
  for (const range of sorted) {
    const last = merged.at(-1)
    if (last && range.fromBlock <= last.toBlock + 1n) {
      if (range.toBlock > last.toBlock) merged[merged.length - 1] = { fromBlock: last.fromBlock, toBlock: range.toBlock }
    } else merged.push({ ...range })
  }
  return merged
}

/**
 * The blocks of [fromBlock, toBlock] that no range of `covered` holds, as ranges in block order.
 *
 * @example
 * missingBlockRanges([{ fromBlock: 3n, toBlock: 4n }], 1n, 6n) // [{ fromBlock: 1n, toBlock: 2n }, { fromBlock: 5n, toBlock: 6n }]
 */
export function missingBlockRanges(covered: readonly BlockRange[], fromBlock: bigint, toBlock: bigint): BlockRange[] {
  const missing: BlockRange[] = []
  let next = fromBlock
  for (const range of mergeBlockRanges(covered)) {
    if (range.toBlock < next) continue
    if (range.fromBlock > toBlock) break
    if (range.fromBlock > next) missing.push({ fromBlock: next, toBlock: range.fromBlock - 1n })
    next = range.toBlock + 1n
  }
  if (next <= toBlock) missing.push({ fromBlock: next, toBlock })
  return missing
}

/** Sum of the ranges' sizes in blocks. */
export const blockCount = (ranges: readonly BlockRange[]): bigint => ranges.reduce((sum, r) => sum + (r.toBlock - r.fromBlock + 1n), 0n)
