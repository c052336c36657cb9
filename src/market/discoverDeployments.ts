import type { Address, PublicClient } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter, PoolRef } from '../adapters/PoolAdapter.ts'
import { blockCount, mergeBlockRanges, missingBlockRanges } from './blockRanges.ts'
import { classifyLogs } from './classifyLogs.ts'
import { createRpcBudget } from './createRpcBudget.ts'
import { MarketError } from './errors.ts'
import { fetchLogsInRange } from './fetchLogsInRange.ts'
import type { BlockRange, MarketStore, StoredPool } from './store/MarketStore.ts'

/** Discovery's progress, after each range (and once before the first). */
export type DiscoveryProgress = {
  /** The deployment of the range just fetched. */
  dex: DexId
  source: Address
  /** Blocks of this deployment scanned by this start so far, and to scan in all (what was stored is not counted). */
  scannedBlocks: bigint
  totalBlocks: bigint
  /** Pools found so far, all deployments, those stored by an earlier start included. */
  pools: number
  /** Every deployment's blocks scanned by this start so far, and to scan in all. */
  allScannedBlocks: bigint
  allTotalBlocks: bigint
  /** `eth_getLogs` ranges fetched by this start so far. */
  ranges: number
  /** The range size now (it shrinks when the node refuses a range as too large, and grows back). */
  rangeBlocks: bigint
  /** Until every range is fetched, at this start's pace so far; undefined before the first range. */
  etaMs: number | undefined
}

export type DiscoverDeploymentsParameters = {
  client: PublicClient
  /**
   * The deployments to scan: `fromBlock` undefined means not scanned (configured pools only); a
   * registry source is not scanned either (its pools are listed from it: `PoolAdapter.listPools`).
   */
  deployments: readonly { dex: DexId; source: Address; fromBlock?: bigint; registry?: boolean }[]
  adapters: ReadonlyMap<DexId, PoolAdapter>
  /** Where the pools found and each deployment's scanned ranges are kept; a restart scans only what is missing. */
  store: MarketStore
  toBlock: bigint
  /** Blocks per `eth_getLogs` range at most (the range size starts there, halves on refusals, grows back to it). */
  maxBlockRange: bigint
  /** `eth_getLogs` calls started per second at most, splits and retries included (default 0: no bound). */
  callsPerSecond?: number
  /** `eth_getLogs` calls in flight at once (default 4). */
  maxInFlight?: number
  /**
   * Blocks rescanned below the highest stored block on a restart (default 64): a reorg while the
   * service was down may have replaced them. Rescanning is idempotent (the set is keyed by pool id).
   */
  rescanDepth?: bigint
  onProgress?: (progress: DiscoveryProgress) => void
  onRequest?: () => void
  /** Aborted: no further range is started; the scan rejects once those in flight are stored. */
  signal?: AbortSignal
  now?: () => number
}

/** Ranges without a refusal, in a row, after which one range probes twice the size (up to `maxBlockRange`). */
const GROW_AFTER_RANGES = 64

/**
 * Cold-start discovery: each deployment's creation events from its start block to `toBlock`, in
 * `eth_getLogs` ranges fetched concurrently within an RPC budget (`maxInFlight` at once,
 * `callsPerSecond`), filtered on the deployment's address and discovery topics. The range size
 * adapts: a range the node refuses as too large is split (`fetchLogsInRange`) and later ranges are
 * asked at half the refused size; after `GROW_AFTER_RANGES` clean ranges one range (a probe, never
 * two at once) is asked at twice the size, and the size doubles when the node serves it, up to
 * `maxBlockRange`. So a node whose cap stays put costs one refusal per `GROW_AFTER_RANGES` ranges,
 * not one per range in flight. Each range is checkpointed as it completes: its pools and the deployment's
 * cursor (the contiguous blocks scanned from the start block, and the ranges scanned past them) in
 * one transaction, so a restart asks only the blocks not stored (and the last `rescanDepth` blocks
 * below the highest stored one). Throttles wait and ask again, never split; a range that still
 * fails stops the scan with its error (what was stored stays). Answers every stored pool.
 *
 * @example
 * const pools = await discoverDeployments({ client, deployments, adapters, store, toBlock, maxBlockRange: 2000n, callsPerSecond: 25, maxInFlight: 4 })
 * // → every StoredPool the store holds, the new ones saved range by range with each deployment's cursor
 */
export async function discoverDeployments({
  client,
  deployments,
  adapters,
  store,
  toBlock,
  maxBlockRange,
  callsPerSecond = 0,
  maxInFlight = 4,
  rescanDepth = 64n,
  onProgress,
  onRequest,
  signal,
  now = Date.now,
}: DiscoverDeploymentsParameters): Promise<StoredPool[]> {
  if (maxBlockRange < 1n) throw new RangeError('discoverDeployments: maxBlockRange must be at least 1')
  const cursors = new Map(store.cursors().map((c) => [`${c.source.toLowerCase()} ${c.dex}`, c]))
  const known = new Set(store.pools().map((p) => p.ref.id))
  const plans = deployments.flatMap((d) => {
    if (d.fromBlock === undefined || d.registry) return []
    const source = d.source.toLowerCase() as Address
    const cursor = cursors.get(`${source} ${d.dex}`)
    // A cursor from another start block is not trusted: the range it covered may not be this one.
    const stored =
      cursor && cursor.fromBlock === d.fromBlock
        ? mergeBlockRanges([{ fromBlock: d.fromBlock, toBlock: cursor.lastScanned }, ...(cursor.ahead ?? [])])
        : []
    // The last blocks below the highest stored one may have been replaced by a reorg while the service was down.
    const top = stored.at(-1)
    const covered = top
      ? mergeBlockRanges([...stored.slice(0, -1), { fromBlock: top.fromBlock, toBlock: top.toBlock - rescanDepth }])
      : stored
    const gaps = missingBlockRanges(covered, d.fromBlock, toBlock)
    const totalBlocks = blockCount(gaps)
    return [
      {
        dex: d.dex,
        source,
        fromBlock: d.fromBlock,
        adapter: adapters.get(d.dex) as PoolAdapter,
        covered,
        gaps,
        totalBlocks,
        scannedBlocks: 0n,
      },
    ]
  })
  const allTotalBlocks = plans.reduce((sum, p) => sum + p.totalBlocks, 0n)
  let allScannedBlocks = 0n
  let found = known.size
  let ranges = 0
  let rangeBlocks = maxBlockRange
  let clean = 0
  // The one range in flight that asks more than `rangeBlocks`, if any: its size and the size it grows from.
  let probing: { blocks: bigint; from: bigint } | undefined
  const startedAt = now()
  const budget = createRpcBudget({ callsPerSecond, maxInFlight })
  const report = (plan: (typeof plans)[number]) => {
    const elapsed = now() - startedAt
    onProgress?.({
      dex: plan.dex,
      source: plan.source,
      scannedBlocks: plan.scannedBlocks,
      totalBlocks: plan.totalBlocks,
      pools: found,
      allScannedBlocks,
      allTotalBlocks,
      ranges,
      rangeBlocks,
      etaMs: allScannedBlocks > 0n ? Number(((allTotalBlocks - allScannedBlocks) * BigInt(elapsed)) / allScannedBlocks) : undefined,
    })
  }
  const work = plans.filter((p) => p.gaps.length > 0)
  if (work.length === 0) return store.pools()
  report(work[0])

  // Ranges are cut as they are taken, so a range size that shrank applies to every later one.
  function* rangesToFetch() {
    for (const plan of work)
      for (const gap of plan.gaps)
        for (let start = gap.fromBlock; start <= gap.toBlock;) {
          const larger = rangeBlocks * 2n < maxBlockRange ? rangeBlocks * 2n : maxBlockRange
          // A probe asks the larger size whole, so only where the gap still holds that many blocks.
          const probe =
            probing === undefined && clean >= GROW_AFTER_RANGES && rangeBlocks < maxBlockRange && start + larger - 1n <= gap.toBlock
          const size = probe ? larger : rangeBlocks
          const end = start + size - 1n < gap.toBlock ? start + size - 1n : gap.toBlock
          if (probe) {
            probing = { blocks: size, from: rangeBlocks }
            clean = 0
          }
          yield { plan, fromBlock: start, toBlock: end, probe }
          start = end + 1n
        }
  }
  const queue = rangesToFetch()
  let failure: { error: unknown } | undefined
  const fetchOne = async ({
    plan,
    fromBlock,
    toBlock: end,
    probe,
  }: {
    plan: (typeof plans)[number]
    fromBlock: bigint
    toBlock: bigint
    probe: boolean
  }) => {
    let refused = false
    const logs = await fetchLogsInRange({
      client,
      fromBlock,
      toBlock: end,
      topics: plan.adapter.discoveryTopics,
      address: [plan.source],
      maxBlockRange: end - fromBlock + 1n,
      budget,
      onRequest,
      onTooLarge: (blocks) => {
        refused = true
        const half = blocks / 2n > 0n ? blocks / 2n : 1n
        if (half < rangeBlocks) rangeBlocks = half
      },
    })
    if (probe && probing) {
      // Served with no refusal since it started: the node takes the larger size. Refused: the size
      // stays, and the count of clean ranges starts over.
      if (!refused && rangeBlocks === probing.from) rangeBlocks = probing.blocks
      probing = undefined
    }
    clean = refused ? 0 : clean + 1
    const { discovered, skipped } = classifyLogs({
      logs,
      sourceAdapter: new Map([[plan.source, plan.adapter]]),
      emitterDex: new Map(),
      adapters,
      isKnown: (id) => known.has(id),
    })
    const pools: StoredPool[] = []
    for (const ref of discovered) {
      known.add(ref.id)
      pools.push({ ref })
    }
    for (const s of skipped) {
      if (known.has(s.id)) continue
      known.add(s.id)
      pools.push({ ref: { id: s.id, dex: s.dex, emitter: plan.source } satisfies PoolRef, skipped: s.reason })
    }
    plan.covered = mergeBlockRanges([...plan.covered, { fromBlock, toBlock: end }])
    const prefix: BlockRange | undefined = plan.covered[0]?.fromBlock === plan.fromBlock ? plan.covered[0] : undefined
    store.save({
      pools,
      cursors: [
        {
          source: plan.source,
          dex: plan.dex,
          fromBlock: plan.fromBlock,
          lastScanned: prefix ? prefix.toBlock : plan.fromBlock - 1n,
          ahead: prefix ? plan.covered.slice(1) : plan.covered,
        },
      ],
    })
    found += pools.length
    ranges++
    plan.scannedBlocks += end - fromBlock + 1n
    allScannedBlocks += end - fromBlock + 1n
    report(plan)
  }
  const worker = async () => {
    for (let next = queue.next(); !next.done && !failure; next = queue.next()) {
      if (signal?.aborted) {
        failure ??= { error: new MarketError('discovery stopped: the market was stopped during the cold start') }
        return
      }
      try {
        await fetchOne(next.value)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: maxInFlight }, worker))
  if (failure) throw failure.error
  return store.pools()
}
