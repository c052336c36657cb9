import { type Address, type Hex, hexToBigInt, type Log, type PublicClient } from 'viem'
import type { DexId, Solver } from '../../bindings/types.ts'
import type { LegData, LegDirection, PoolAdapter, PoolRef, PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { presentAdapters } from '../adapters/presentAdapters.ts'
import type { ChainConfig } from '../chains/ChainConfig.ts'
import { describeRefreshError } from './describeRefreshError.ts'
import { MarketError, MarketStaleError } from './errors.ts'
import { fetchLogsInRange } from './fetchLogsInRange.ts'
import { readPoolSnapshots } from './readPoolSnapshots.ts'

export type CreateMarketStateParameters = {
  client: PublicClient
  chain: ChainConfig
  solver: Pick<Solver, 'applyBlock'>
  /** Older than this since the last successful sync with the chain head, the snapshot is stale. */
  maxSnapshotAgeMs: number
  /** Delay between the end of one refresh and the next `eth_blockNumber` poll; 0: no loop (call `refresh()` yourself). */
  pollIntervalMs?: number
  /** Pools read in parallel. */
  readConcurrency?: number
  /** Blocks per `eth_getLogs`. */
  maxLogBlockRange?: bigint
  /** Where skip reasons, errors and timings go; default `console.log`. */
  log?: (line: string) => void
  /**
   * Applied to every log line and to `lastError` (the service passes its secret redactor: viem's
   * errors carry the RPC URL, with a hosted provider's key in it). Default: unchanged.
   */
  redact?: (text: string) => string
  now?: () => number
}

export type MarketFreshness = {
  /** The block every pool in the solver was read at; undefined before the cold start. */
  blockNumber: bigint | undefined
  blockTimestamp: bigint | undefined
  /** Milliseconds since the snapshot was last confirmed to be at the chain head (Infinity: never). */
  ageMs: number
  stale: boolean
  /** The last refresh's error, cleared by the next successful one. */
  lastError: string | undefined
}

export type RefreshReport = {
  fromBlock: bigint
  toBlock: bigint
  /** Known pools whose events in the range said their state changed. */
  changed: string[]
  /** Pools re-read regardless of events (clock-driven or event-less fees): whole, or their volatile part only. */
  alwaysRefreshed: string[]
  /** Pools created in the range. */
  discovered: string[]
  /** Every pool read at `toBlock`, sorted. */
  reread: string[]
  upserted: string[]
  removed: string[]
  skipped: { id: string; reason: string }[]
  durationMs: number
}

export type MarketState = {
  /** Cold start: discover, read every pool at one block, upsert them; then poll (when `pollIntervalMs` > 0). */
  start: () => Promise<RefreshReport>
  /** One step: new blocks → logs → re-read the pools that changed at the head → upsert/remove. */
  refresh: () => Promise<RefreshReport>
  freshness: () => MarketFreshness
  /** Throws `MarketStaleError` when quotes must be refused. */
  assertFresh: () => void
  /** The pools in the solver, as read. */
  pools: () => PoolSnapshot[]
  /** Known pools left out of the solver, with why. */
  skipped: () => { id: string; dex: DexId; reason: string }[]
  /** The leg through a pool of the market, in `direction` (a kind whose leg names its tokens needs it). */
  encodeLeg: (poolId: string, direction?: LegDirection) => LegData
  stop: () => Promise<void>
}

/**
 * The market-state service: keeps the solver's pools at the chain head, block by block, reading
 * every pool of a snapshot at one block number and only the pools whose events say they changed.
 * It never invents state: a failed refresh leaves the snapshot as it was and reports the error;
 * once the snapshot is older than `maxSnapshotAgeMs`, `assertFresh()` throws.
 *
 * @example
 * const market = createMarketState({ client, chain: devnetChainConfig(), solver, maxSnapshotAgeMs: 10_000, pollIntervalMs: 250 })
 * await market.start()
 * market.assertFresh()
 * await market.stop()
 */
export function createMarketState({
  client,
  chain,
  solver,
  maxSnapshotAgeMs,
  pollIntervalMs = 0,
  readConcurrency = 8,
  maxLogBlockRange = 2000n,
  log: write = (line) => console.log(line),
  redact = (text) => text,
  now = Date.now,
}: CreateMarketStateParameters): MarketState {
  const log = (line: string) => write(redact(line))
  const adapters = presentAdapters()
  const adapterOf = (ref: PoolRef): PoolAdapter => adapters.get(ref.dex) as PoolAdapter
  const lower = (a: string) => a.toLowerCase() as Address

  // Discovery: which adapter reads the logs of each configured source.
  const sourceAdapter = new Map<Address, PoolAdapter>()
  for (const [dex, deployment] of Object.entries(chain.deployments) as [DexId, { source: Address }][]) {
    const adapter = adapters.get(dex)
    if (!adapter) throw new MarketError(`chain ${chain.name}: ${dex} has a deployment but no adapter`)
    sourceAdapter.set(lower(deployment.source), adapter)
  }

  const known = new Map<string, PoolRef>() // every pool we follow, usable or not
  const emitterDex = new Map<Address, DexId>() // pool contract or singleton manager → kind
  const inSolver = new Map<string, PoolSnapshot>()
  const skips = new Map<string, { id: string; dex: DexId; reason: string }>()
  const allTopics = [...new Set([...adapters.values()].flatMap((a) => [...a.discoveryTopics, ...a.stateTopics]))]

  let blockNumber: bigint | undefined
  let blockTimestamp: bigint | undefined
  let lastSyncAt: number | undefined
  let lastError: string | undefined
  let running: Promise<RefreshReport> | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false

  const follow = (ref: PoolRef) => {
    known.set(ref.id, ref)
    emitterDex.set(ref.emitter, ref.dex)
  }
  const head = async () => hexToBigInt((await client.request({ method: 'eth_blockNumber' })) as Hex)

  /** Decodes the range's logs into newly created pools and known pools whose state changed. */
  const classify = (logs: Log[]) => {
    const discovered: PoolRef[] = []
    const changed = new Set<string>()
    for (const entry of logs) {
      const emitter = lower(entry.address)
      const topic0 = entry.topics[0]
      if (!topic0) continue
      const source = sourceAdapter.get(emitter)
      if (source?.discoveryTopics.includes(topic0)) {
        const found = source.poolFromDiscoveryLog(entry)
        if ('ref' in found) {
          // Followed only once read: a failed refresh sees these logs again.
          if (!known.has(found.ref.id) && !discovered.some((r) => r.id === found.ref.id)) discovered.push(found.ref)
        } else if (!skips.has(found.skipped.id)) {
          skips.set(found.skipped.id, found.skipped)
          log(`market: skip ${found.skipped.dex} pool ${found.skipped.id}: ${found.skipped.reason}`)
        }
        continue
      }
      const dex = emitterDex.get(emitter)
      const adapter = dex && adapters.get(dex)
      if (!adapter?.stateTopics.includes(topic0)) continue
      const id = adapter.poolIdOfStateLog(entry)
      if (known.has(id)) changed.add(id)
    }
    return { discovered, changed }
  }

  /**
   * Reads `refs` at `toBlock` and applies them to the solver as that block, in one step. A node may
   * answer a read at its head block from the state of the block it is mining (anvil does: its live
   * state moves before its head number), so once the reads are done the head is asked again: if it
   * moved on, the reads are repeated, now at a block behind the head, which every node serves from
   * that block's own state.
   */
  const apply = async (refs: PoolRef[], toBlock: bigint, previousOf?: (ref: PoolRef) => PoolSnapshot | undefined) => {
    const block = await client.getBlock({ blockNumber: toBlock })
    const nextBlock = { number: toBlock + 1n, timestamp: block.timestamp + BigInt(chain.blockTimeSec) }
    const read = () => readPoolSnapshots({ client, refs, adapterOf, blockNumber: toBlock, nextBlock, concurrency: readConcurrency, previousOf })
    let { snapshots, unusable } = await read()
    if (refs.length > 0 && (await head()) > toBlock) ({ snapshots, unusable } = await read())
    // A pool that became unusable leaves the solver with the block that made it so.
    const { rejected } = await solver.applyBlock({
      blockNumber: Number(toBlock),
      upserts: snapshots.map((s) => s.input),
      removals: unusable.map((u) => u.ref.id).filter((id) => inSolver.has(id)),
    })
    const refused = new Map(rejected.map((r) => [r.id, `solver refused it: ${r.reason}`]))
    const accepted = snapshots.filter((s) => !refused.has(s.ref.id))
    const left = [...unusable, ...snapshots.filter((s) => refused.has(s.ref.id)).map((s) => ({ ref: s.ref, reason: refused.get(s.ref.id) as string }))]
    const removed = left.map((r) => r.ref.id).filter((id) => inSolver.has(id))
    for (const snapshot of accepted) {
      inSolver.set(snapshot.ref.id, snapshot)
      skips.delete(snapshot.ref.id)
    }
    for (const { ref, reason } of left) {
      inSolver.delete(ref.id)
      skips.set(ref.id, { id: ref.id, dex: ref.dex, reason })
      log(`market: ${ref.dex} pool ${ref.id} left out at block ${toBlock}: ${reason}`)
    }
    blockNumber = toBlock
    blockTimestamp = block.timestamp
    lastSyncAt = now()
    lastError = undefined
    return {
      upserted: accepted.map((s) => s.ref.id).sort(),
      removed: removed.sort(),
      skipped: left.map(({ ref, reason }) => ({ id: ref.id, reason })),
    }
  }

  const guarded = (step: () => Promise<RefreshReport>) => {
    if (running) return running
    running = step()
      .catch((error: unknown) => {
        lastError = redact(describeRefreshError(error))
        log(`market: refresh failed (snapshot stays at block ${blockNumber}): ${lastError}`)
        throw error
      })
      .finally(() => {
        running = undefined
      })
    return running
  }

  const coldStart = async (): Promise<RefreshReport> => {
    const started = now()
    const toBlock = await head()
    for (const [dex, deployment] of Object.entries(chain.deployments) as [DexId, { source: Address; fromBlock?: bigint }][]) {
      if (deployment.fromBlock === undefined) continue
      const adapter = adapters.get(dex) as PoolAdapter
      const logs = await fetchLogsInRange({
        client, fromBlock: deployment.fromBlock, toBlock, topics: adapter.discoveryTopics, address: [deployment.source], maxBlockRange: maxLogBlockRange,
      })
      for (const ref of classify(logs).discovered) follow(ref)
    }
    for (const pool of chain.pools) {
      const adapter = adapters.get(pool.dex)
      if (!adapter) {
        log(`market: configured ${pool.dex} pool ${pool.address} has no adapter`)
        continue
      }
      const ref = adapter.refOfConfiguredPool(pool, chain.deployments[pool.dex])
      if (!known.has(ref.id)) follow(ref)
    }
    const refs = [...known.values()]
    const applied = await apply(refs, toBlock)
    const ids = refs.map((r) => r.id).sort()
    const report = { fromBlock: toBlock, toBlock, changed: [], alwaysRefreshed: [], discovered: ids, reread: ids, ...applied, durationMs: now() - started }
    log(`market: cold start at block ${toBlock}: ${report.upserted.length} pools in the solver, ${report.skipped.length} left out, ${report.durationMs} ms`)
    return report
  }

  const step = async (): Promise<RefreshReport> => {
    const started = now()
    if (blockNumber === undefined) throw new MarketError('refresh before start')
    const toBlock = await head()
    const fromBlock = blockNumber + 1n
    if (toBlock < fromBlock) {
      lastSyncAt = now()
      lastError = undefined
      return { fromBlock, toBlock, changed: [], alwaysRefreshed: [], discovered: [], reread: [], upserted: [], removed: [], skipped: [], durationMs: now() - started }
    }
    const logs = await fetchLogsInRange({ client, fromBlock, toBlock, topics: allTopics, maxBlockRange: maxLogBlockRange })
    const { discovered, changed } = classify(logs)
    const always = [...inSolver.values()].filter((s) => s.refreshEveryBlock).map((s) => s.ref.id)
    const ids = new Set([...changed, ...always, ...discovered.map((r) => r.id)])
    const refs = [...ids].map((id) => known.get(id) ?? (discovered.find((r) => r.id === id) as PoolRef))
    // A pool re-read only for its event-less part builds on its last snapshot: no event said the rest moved.
    const volatileOnly = new Set(always.filter((id) => !changed.has(id)))
    const applied = await apply(refs, toBlock, (ref) => (volatileOnly.has(ref.id) ? inSolver.get(ref.id) : undefined))
    for (const ref of discovered) follow(ref)
    const report = {
      fromBlock, toBlock, changed: [...changed].sort(), alwaysRefreshed: always.sort(), discovered: discovered.map((r) => r.id).sort(),
      reread: [...ids].sort(), ...applied, durationMs: now() - started,
    }
    if (refs.length > 0) log(`market: blocks ${fromBlock}..${toBlock}: re-read ${refs.length} pools in ${report.durationMs} ms`)
    return report
  }

  const schedule = () => {
    if (stopped || pollIntervalMs <= 0) return
    timer = setTimeout(() => {
      guarded(step).then(schedule, schedule)
    }, pollIntervalMs)
  }

  const freshness = (): MarketFreshness => {
    const ageMs = lastSyncAt === undefined ? Number.POSITIVE_INFINITY : now() - lastSyncAt
    return { blockNumber, blockTimestamp, ageMs, stale: ageMs > maxSnapshotAgeMs, lastError }
  }

  return {
    start: async () => {
      if (blockNumber !== undefined) throw new MarketError('already started')
      const report = await guarded(coldStart)
      schedule()
      return report
    },
    refresh: () => guarded(step),
    freshness,
    assertFresh: () => {
      const f = freshness()
      if (f.stale) throw new MarketStaleError({ ageMs: f.ageMs, maxSnapshotAgeMs, lastError: f.lastError })
    },
    pools: () => [...inSolver.values()],
    skipped: () => [...skips.values()],
    encodeLeg: (poolId, direction) => {
      const snapshot = inSolver.get(poolId.toLowerCase())
      if (!snapshot) throw new MarketError(`pool ${poolId} is not in the market`)
      return adapterOf(snapshot.ref).encodeLeg(snapshot.ref, direction)
    },
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      await running?.catch(() => undefined)
    },
  }
}
