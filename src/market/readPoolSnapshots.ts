import type { Address, PublicClient } from 'viem'
import { PoolUnusableError } from '../adapters/errors.ts'
import type { NextBlock, PoolAdapter, PoolRef, PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { estimateTickLensGas } from '../adapters/state/estimateTickLensGas.ts'
import { createBatchedReadClient } from './createBatchedReadClient.ts'
import { isTransportError } from './isTransportError.ts'

export type ReadPoolSnapshotsParameters = {
  client: PublicClient
  refs: readonly PoolRef[]
  adapterOf: (ref: PoolRef) => PoolAdapter
  blockNumber: bigint
  /** The block after `blockNumber`, for state that follows the clock. */
  nextBlock: NextBlock
  /** Batched reads (`eth_call`s of up to `DEFAULT_BATCH_CAPS`) sent at once. */
  concurrency: number
  /**
   * A pool's last snapshot when only its event-less part needs reading (see the adapters'
   * `readVolatile`); undefined, or an adapter without `readVolatile`: the whole pool is read.
   */
  previousOf?: (ref: PoolRef) => PoolSnapshot | undefined
  /** The address that executes trades (the swap router), for venues that quote by caller. */
  executor?: Address
}

export type ReadPoolSnapshotsReturnType = {
  snapshots: PoolSnapshot[]
  /** Pools that answered but cannot be priced (not initialized, a reverting view, ...). */
  unusable: { ref: PoolRef; reason: string }[]
}

/**
 * Reads pools at one block, all at once through one batching client (`createBatchedReadClient`):
 * the adapters' calls of every pool in the same phase (slot0 and the spacing, then the tick scans,
 * ...) share Multicall3 `aggregate3` calls, so 5,000 V2 pairs take 30 `eth_call`s, not 5,000. A
 * transport failure rejects the whole read (nothing half-read is used); a pool-level failure only
 * marks that pool unusable.
 *
 * @example
 * const { snapshots, unusable } = await readPoolSnapshots({ client, refs, adapterOf, blockNumber, nextBlock, concurrency: 8 })
 * // → each pool's PoolSnapshot in refs' order, or { ref, reason } in unusable; a transport failure rejects all
 */
export async function readPoolSnapshots({
  client,
  refs,
  adapterOf,
  blockNumber,
  nextBlock,
  concurrency,
  previousOf,
  executor,
}: ReadPoolSnapshotsParameters): Promise<ReadPoolSnapshotsReturnType> {
  const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: concurrency, estimateGas: estimateTickLensGas })
  // By the pools' order in `refs`, whatever order their batches answer in.
  const outcomes: ({ snapshot: PoolSnapshot } | { unusable: { ref: PoolRef; reason: string } })[] = []
  const readOne = async (ref: PoolRef, i: number) => {
    try {
      const adapter = adapterOf(ref)
      const previous = previousOf?.(ref)
      outcomes[i] = {
        snapshot:
          previous && adapter.readVolatile
            ? await adapter.readVolatile({ client: batched, ref: previous.ref, blockNumber, nextBlock, previous, executor })
            : await adapter.readPool({ client: batched, ref, blockNumber, nextBlock, executor }),
      }
    } catch (error) {
      if (error instanceof PoolUnusableError) outcomes[i] = { unusable: { ref, reason: error.reason } }
      else if (isTransportError(error)) throw error
      else outcomes[i] = { unusable: { ref, reason: `read failed: ${(error as Error).message.split('\n')[0]}` } }
    }
  }
  await Promise.all(refs.map(readOne))
  return {
    snapshots: outcomes.flatMap((o) => ('snapshot' in o ? [o.snapshot] : [])),
    unusable: outcomes.flatMap((o) => ('unusable' in o ? [o.unusable] : [])),
  }
}
