/** How final a block is, against the chain's safe and finalized blocks as the indexer last read them. */
export type Finality = 'finalized' | 'safe' | 'unsafe'

/**
 * The finality of a resource's block (spec §2's finality field).
 *
 * @example
 * finalityOf({ block: 100, safe: 120, finalized: 90 }) // 'safe'
 */
export function finalityOf({ block, safe, finalized }: { block: number; safe: number; finalized: number }): Finality {
  return block <= finalized ? 'finalized' : block <= safe ? 'safe' : 'unsafe'
}
