import type { PublicClient } from 'viem'
import { PoolUnusableError } from '../adapters/errors.ts'
import type { NextBlock, PoolAdapter, PoolRef, PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { isTransportError } from './isTransportError.ts'

export type ReadPoolSnapshotsParameters = {
  client: PublicClient
  refs: readonly PoolRef[]
  adapterOf: (ref: PoolRef) => PoolAdapter
  blockNumber: bigint
  /** The block after `blockNumber`, for state that follows the clock. */
  nextBlock: NextBlock
  /** Pools read at once (each read is a few multicalls). */
  concurrency: number
  /**
   * A pool's last snapshot when only its event-less part needs reading (see the adapters'
   * `readVolatile`); undefined, or an adapter without `readVolatile`: the whole pool is read.
   */
  previousOf?: (ref: PoolRef) => PoolSnapshot | undefined
}

export type ReadPoolSnapshotsReturnType = {
  snapshots: PoolSnapshot[]
  /** Pools that answered but cannot be priced (not initialized, a reverting view, ...). */
  unusable: { ref: PoolRef; reason: string }[]
}

/**
 * Reads pools at one block. A transport failure rejects the whole read (nothing half-read is
 * used); a pool-level failure only marks that pool unusable.
 *
 * @example
 * const { snapshots, unusable } = await readPoolSnapshots({ client, refs, adapterOf, blockNumber, nextBlock, concurrency: 8 })
 */
export async function readPoolSnapshots({ client, refs, adapterOf, blockNumber, nextBlock, concurrency, previousOf }: ReadPoolSnapshotsParameters): Promise<ReadPoolSnapshotsReturnType> {
  const snapshots: PoolSnapshot[] = []
  const unusable: { ref: PoolRef; reason: string }[] = []
  let next = 0
  const worker = async () => {
    while (next < refs.length) {
      const ref = refs[next++]
      try {
        const adapter = adapterOf(ref)
        const previous = previousOf?.(ref)
        snapshots.push(
          previous && adapter.readVolatile
            ? await adapter.readVolatile({ client, ref: previous.ref, blockNumber, nextBlock, previous })
            : await adapter.readPool({ client, ref, blockNumber, nextBlock }),
        )
      } catch (error) {
        if (error instanceof PoolUnusableError) unusable.push({ ref, reason: error.reason })
        else if (isTransportError(error)) throw error
        else unusable.push({ ref, reason: `read failed: ${(error as Error).message.split('\n')[0]}` })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, refs.length) }, worker))
  return { snapshots, unusable }
}
