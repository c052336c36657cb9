import type { Address, PublicClient } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter, PoolRef } from '../adapters/PoolAdapter.ts'
import { classifyLogs } from './classifyLogs.ts'
import { fetchLogsInRange } from './fetchLogsInRange.ts'
import type { MarketStore, StoredPool } from './store/MarketStore.ts'

/** Discovery's progress, after each range of each deployment. */
export type DiscoveryProgress = {
  dex: DexId
  source: Address
  /** Blocks of this deployment's range scanned so far, and in all. */
  scannedBlocks: bigint
  totalBlocks: bigint
  /** Pools found so far, all deployments. */
  pools: number
  /** Every deployment's blocks scanned so far and in all. */
  allScannedBlocks: bigint
  allTotalBlocks: bigint
}

export type DiscoverDeploymentsParameters = {
  client: PublicClient
  /** The deployments to scan: `fromBlock` undefined means not scanned (configured pools only). */
  deployments: readonly { dex: DexId; source: Address; fromBlock?: bigint }[]
  adapters: ReadonlyMap<DexId, PoolAdapter>
  /** Where the pools found and each deployment's cursor are kept; a restart resumes after the cursor. */
  store: MarketStore
  toBlock: bigint
  maxBlockRange: bigint
  /**
   * Blocks rescanned below a stored cursor on a restart (default 64): a reorg while the service
   * was down may have replaced them. Rescanning is idempotent (the set is keyed by pool id).
   */
  rescanDepth?: bigint
  onProgress?: (progress: DiscoveryProgress) => void
  onRequest?: () => void
}

/**
 * Cold-start discovery: each deployment's creation events from its start block (or, on a restart,
 * from its stored cursor less `rescanDepth`) to `toBlock`, in bounded `eth_getLogs` ranges with
 * retries (`fetchLogsInRange`), filtered on the deployment's address and discovery topics. Each
 * deployment's pools and cursor are saved in one transaction once its scan is complete, so an
 * interrupted start resumes where the last complete deployment left off. Answers every stored pool.
 *
 * @example
 * const pools = await discoverDeployments({ client, deployments, adapters, store, toBlock, maxBlockRange: 2000n })
 * // → every StoredPool the store holds, the new ones saved with each deployment's cursor at toBlock
 */
export async function discoverDeployments({
  client,
  deployments,
  adapters,
  store,
  toBlock,
  maxBlockRange,
  rescanDepth = 64n,
  onProgress,
  onRequest,
}: DiscoverDeploymentsParameters): Promise<StoredPool[]> {
  const cursors = new Map(store.cursors().map((c) => [`${c.source.toLowerCase()} ${c.dex}`, c]))
  const known = new Set(store.pools().map((p) => p.ref.id))
  const plans = deployments.flatMap((d) => {
    if (d.fromBlock === undefined) return []
    const cursor = cursors.get(`${d.source.toLowerCase()} ${d.dex}`)
    // A cursor from another start block is not trusted: the range it covered may not be this one.
    const resume = cursor && cursor.fromBlock === d.fromBlock ? cursor.lastScanned + 1n - rescanDepth : d.fromBlock
    const from = resume > d.fromBlock ? resume : d.fromBlock
    return from <= toBlock ? [{ ...d, fromBlock: d.fromBlock, from }] : []
  })
  const allTotalBlocks = plans.reduce((sum, p) => sum + (toBlock - p.from + 1n), 0n)
  let allScannedBlocks = 0n
  let found = known.size
  for (const plan of plans) {
    const adapter = adapters.get(plan.dex) as PoolAdapter
    const source = plan.source.toLowerCase() as Address
    const pools: StoredPool[] = []
    let scannedBlocks = 0n
    const logs = await fetchLogsInRange({
      client,
      fromBlock: plan.from,
      toBlock,
      topics: adapter.discoveryTopics,
      address: [source],
      maxBlockRange,
      onRequest,
      onRange: ({ fromBlock, toBlock: end, logs: count }) => {
        scannedBlocks += end - fromBlock + 1n
        allScannedBlocks += end - fromBlock + 1n
        if (count > 0) found += count
        onProgress?.({
          dex: plan.dex,
          source,
          scannedBlocks,
          totalBlocks: toBlock - plan.from + 1n,
          pools: found,
          allScannedBlocks,
          allTotalBlocks,
        })
      },
    })
    const { discovered, skipped } = classifyLogs({
      logs,
      sourceAdapter: new Map([[source, adapter]]),
      emitterDex: new Map(),
      adapters,
      isKnown: (id) => known.has(id),
    })
    for (const ref of discovered) {
      known.add(ref.id)
      pools.push({ ref })
    }
    for (const s of skipped) {
      if (known.has(s.id)) continue
      known.add(s.id)
      pools.push({ ref: { id: s.id, dex: s.dex, emitter: source } satisfies PoolRef, skipped: s.reason })
    }
    store.save({ pools, cursors: [{ source, dex: plan.dex, fromBlock: plan.fromBlock, lastScanned: toBlock }] })
  }
  return store.pools()
}
