import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'

/** A pool as the solver held it from `readAtBlock` on: its snapshot, or undefined once it left the solver. */
export type PoolVersion = { readAtBlock: bigint; snapshot: PoolSnapshot | undefined }

export type PoolVersions = {
  /** Records what block `readAtBlock` applied for `poolId`: a snapshot read at that block, or its removal. */
  record: (poolId: string, readAtBlock: bigint, snapshot: PoolSnapshot | undefined) => void
  /**
   * The version the solver priced at `blockNumber`: the latest recorded at or before it. Undefined
   * when the pool was never recorded, or when every remembered version is newer (older ones were
   * let go).
   */
  at: (poolId: string, blockNumber: bigint) => PoolVersion | undefined
  /** Forgets every version recorded after `blockNumber` (the blocks a reorg dropped). */
  dropAfter: (blockNumber: bigint) => void
}

export type CreatePoolVersionsParameters = {
  /** Versions kept per pool (the newest); a plan's block is at most a few steps old. */
  keepPerPool: number
}

/**
 * The recent versions of every pool the market applied, so that what the solver priced at a recent
 * block can be shown beside the chain's state at that block (`GET /market/pools/{poolId}`, the
 * back-to-back soak's diagnosis). One entry per pool per block it was read at: a block costs as many
 * entries as it re-read pools, and a pool keeps at most `keepPerPool`.
 *
 * @example
 * const versions = createPoolVersions({ keepPerPool: 16 })
 * versions.record(snapshot.ref.id, 120n, snapshot)
 * versions.at(snapshot.ref.id, 125n) // { readAtBlock: 120n, snapshot }
 */
export function createPoolVersions({ keepPerPool }: CreatePoolVersionsParameters): PoolVersions {
  const byPool = new Map<string, PoolVersion[]>()
  return {
    record: (poolId, readAtBlock, snapshot) => {
      const versions = byPool.get(poolId) ?? []
      // Re-reads of the same block (a reorg's rebuild at the head it already had) replace it.
      while (versions.length > 0 && versions[versions.length - 1].readAtBlock >= readAtBlock) versions.pop()
      versions.push({ readAtBlock, snapshot })
      if (versions.length > keepPerPool) versions.splice(0, versions.length - keepPerPool)
      byPool.set(poolId, versions)
    },
    at: (poolId, blockNumber) => {
      const versions = byPool.get(poolId) ?? []
      for (let i = versions.length - 1; i >= 0; i--) if (versions[i].readAtBlock <= blockNumber) return versions[i]
      return undefined
    },
    dropAfter: (blockNumber) => {
      for (const [poolId, versions] of byPool) {
        const kept = versions.filter((v) => v.readAtBlock <= blockNumber)
        if (kept.length === 0) byPool.delete(poolId)
        else byPool.set(poolId, kept)
      }
    },
  }
}
