import type { Address, Hex } from 'viem'
import type { DexId, PoolInput } from '../../bindings/types.ts'
import type { PoolAdapter, PoolRef, PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { presentAdapters } from '../adapters/presentAdapters.ts'
import { chainDeployments, firstDeployment } from '../chains/chainDeployments.ts'
import { l1FeePerBytesWei } from '../chains/opStack/l1FeeWei.ts'
import { readL1FeeParameters } from '../chains/opStack/readL1FeeParameters.ts'
import { classifyLogs } from './classifyLogs.ts'
import { describeRefreshError } from './describeRefreshError.ts'
import { discoverDeployments } from './discoverDeployments.ts'
import { MarketError, MarketReorgError, MarketReorgingError, MarketStaleError } from './errors.ts'
import { fetchLogsInRange } from './fetchLogsInRange.ts'
import { isTransportError } from './isTransportError.ts'
import { followedLogFilters } from './followedLogFilters.ts'
import { leftOutReason } from './liquidity/leftOutReason.ts'
import { poolDepthWei } from './liquidity/poolDepthWei.ts'
import { tokenPricesInWeth } from './liquidity/tokenPricesInWeth.ts'
import { createTokenScreen } from './tokens/createTokenScreen.ts'
import type { BlockFees, CreateMarketStateParameters, DiscoveryStatus, MarketState, RefreshReport } from './MarketState.ts'
import { readPoolSnapshots } from './readPoolSnapshots.ts'
import { sameInput } from './sameInput.ts'
import { createMemoryMarketStore } from './store/createMemoryMarketStore.ts'
import { createPoolVersions } from './createPoolVersions.ts'

export type { BlockFees, CreateMarketStateParameters, DiscoveryStatus, MarketFreshness, MarketState, RefreshReport } from './MarketState.ts'

/** A block as the market tracks it. */
type Head = { number: bigint; hash: Hex; parentHash: Hex; timestamp: bigint }
/** One applied step: its head, and the pools read for it (re-read again if a reorg drops it). */
type Applied = { number: bigint; hash: Hex; reread: string[] }

/** Token prices for the liquidity floor are recomputed from the whole market every this many steps. */
const PRICE_REFRESH_STEPS = 150
/** Fees kept by block for `feesAt` (a plan's block is at most a few steps old). */
const FEES_KEPT = 16
/** Reorgs whose common ancestor is kept for `isSettled` (a solve lasts at most 10 s: a handful). */
const ANCESTORS_KEPT = 16
/**
 * A restart leaves pools stored below the floor unread when their last read is at most this many
 * blocks old (a day of Base): their logs since are asked instead (one `eth_getLogs` per 1,000 pools
 * and range); after a longer stop every pool is read again.
 */
const SHALLOW_KEPT_BLOCKS = 43_200n

/**
 * The market-state service: keeps the solver's pools at the chain head, block by block, reading
 * every pool of a snapshot at one block and only the pools whose events say they changed (the
 * `eth_getLogs` filters name the followed pools and the deployments, nothing else). It discovers
 * pools from the chain config's deployments (persisted in `store`), leaves out pools of denied
 * tokens and pools below the liquidity floor (listed with the reason), tracks the hash of its
 * block and handles reorgs (the pools read for dropped blocks, and those changed on the new branch,
 * are re-read at the new head; deeper than `reorgDepth`, everything is). It never invents state: a
 * failed refresh leaves the snapshot as it was and reports the error; once the snapshot is older
 * than `maxSnapshotAgeMs`, or while a reorg is being handled, `assertFresh()` throws. Details:
 * docs/real-chain.md.
 *
 * @example
 * const market = createMarketState({ client, chain: devnetChainConfig(), solver, maxSnapshotAgeMs: 10_000, pollIntervalMs: 250 })
 * await market.start()
 * market.assertFresh() // no throw: the snapshot is younger than 10 s (MarketStaleError otherwise)
 * await market.stop()
 */
export function createMarketState({
  client,
  chain,
  solver,
  maxSnapshotAgeMs,
  pollIntervalMs = 0,
  maxPollBackoffMs = 5000,
  readConcurrency = 8,
  maxLogBlockRange = 2000n,
  discoveryCallsPerSecond = 0,
  discoveryMaxInFlight = 4,
  maxAddressesPerFilter = 1000,
  store = createMemoryMarketStore({ chainId: chain.chainId }),
  denyTokens = chain.denyTokens ?? [],
  minLiquidityWei = 0n,
  reorgDepth = 64,
  l1BytesPerLeg = 0n,
  tokenWindowBlocks = 1800n,
  tokenRecheckAfterBlocks = 43_200n,
  checkTokens = true,
  onProgress,
  log: write = (line) => console.log(line),
  redact = (text) => text,
  now = Date.now,
}: CreateMarketStateParameters): MarketState {
  const log = (line: string) => write(redact(line))
  const adapters = presentAdapters()
  const adapterOf = (ref: PoolRef): PoolAdapter => adapters.get(ref.dex) as PoolAdapter
  const lower = (a: string) => a.toLowerCase() as Address
  const denied = new Set(denyTokens.map((t) => t.toLowerCase()))
  const tokens = checkTokens
    ? createTokenScreen({
        client,
        store,
        trusted: [chain.weth],
        windowBlocks: tokenWindowBlocks,
        recheckAfterBlocks: tokenRecheckAfterBlocks,
        maxBlockRange: maxLogBlockRange,
        concurrency: readConcurrency,
        log,
      })
    : undefined

  const sources: { dex: DexId; source: Address; fromBlock?: bigint; registry?: boolean }[] = []
  const sourceAdapter = new Map<Address, PoolAdapter>()
  for (const { dex, deployment } of chainDeployments(chain.deployments)) {
    const adapter = adapters.get(dex)
    if (!adapter) throw new MarketError(`chain ${chain.name}: ${dex} has a deployment but no adapter`)
    if (deployment.registry && !adapter.listPools)
      throw new MarketError(
        `chain ${chain.name}: ${dex} deployment ${deployment.source} is a registry, but ${dex} pools are not listed from one`,
      )
    sourceAdapter.set(lower(deployment.source), adapter)
    sources.push({ dex, source: lower(deployment.source), fromBlock: deployment.fromBlock, registry: deployment.registry })
  }
  /** Each registry source's count listed so far: its next listing starts there. */
  const listedCount = new Map<Address, bigint>()
  /**
   * The pools a registry source lists at `blockNumber` past what was listed before, not followed yet.
   * A source that does not answer as a registry (no contract there, no `pool_count`: a mistyped
   * address) is reported among the skipped, its address as the id, and listed again at its next
   * event; an RPC that cannot answer aborts the step, as any read does.
   */
  const listRegistry = async (source: Address, blockNumber: bigint): Promise<PoolRef[]> => {
    const adapter = sourceAdapter.get(source) as PoolAdapter & Required<Pick<PoolAdapter, 'listPools'>>
    try {
      const { refs, count } = await adapter.listPools({ client, source, blockNumber, from: listedCount.get(source) ?? 0n })
      listedCount.set(source, count)
      skips.delete(source)
      return refs.filter((ref) => !known.has(ref.id))
    } catch (error) {
      if (isTransportError(error)) throw error
      skip({ id: source, dex: adapter.dex, reason: `registry not listed: ${redact(describeRefreshError(error))}` })
      return []
    }
  }

  const known = new Map<string, PoolRef>() // every pool we follow, in the solver or not
  const emitterDex = new Map<Address, DexId>() // pool contract or singleton manager → kind
  const inSolver = new Map<string, PoolSnapshot>()
  /** `inSolver`'s pools as one array, made again only after they change (`pools()`). */
  let poolList: readonly PoolSnapshot[] | undefined
  const skips = new Map<string, { id: string; dex: DexId; reason: string }>()
  /** Pools below the floor at their last read (kept in the store): a restart reads them only after an event. */
  const shallowIds = new Set<string>()
  /** Pools left out for a token's behaviour, by token: read again when its verdict is due (`dueLeftOut`). */
  const heldOut = new Map<string, Map<string, PoolRef>>()
  let prices = new Map<string, bigint>()
  let steps = 0
  let discovery: DiscoveryStatus = {
    phase: 'notStarted',
    scannedBlocks: 0n,
    totalBlocks: 0n,
    pools: 0,
    ranges: 0,
    rangeBlocks: maxLogBlockRange,
    etaMs: undefined,
  }

  let head: Head | undefined
  let lastSyncAt: number | undefined
  let lastError: string | undefined
  let running: Promise<RefreshReport> | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  /** Stops the cold start's scan (a service closed while it runs must not wait for hours of ranges). */
  const stopping = new AbortController()
  let failures = 0
  let reorgs = 0
  let reorging = false
  /**
   * Per reorg (by its count), the last block both chains share once found (-1: none within
   * `reorgDepth`, the market rebuilt): blocks up to it stayed on the chain (`isSettled`). The last
   * few only: a plan solved across more reorgs than that is not settled.
   */
  const ancestors = new Map<number, bigint>()
  /** The lagging head last refused (logged once per head). */
  let behindAt: bigint | undefined
  const history: Applied[] = []
  const fees = new Map<bigint, BlockFees>()
  const versions = createPoolVersions({ keepPerPool: FEES_KEPT })

  const follow = (ref: PoolRef) => {
    known.set(ref.id, ref)
    emitterDex.set(ref.emitter, ref.dex)
  }
  const skip = (s: { id: string; dex: DexId; reason: string }) => {
    if (skips.get(s.id)?.reason === s.reason) return
    skips.set(s.id, s)
    log(`market: skip ${s.dex} pool ${s.id}: ${s.reason}`)
  }
  const getHead = async (blockNumber?: bigint): Promise<Head> => {
    const b = blockNumber === undefined ? await client.getBlock({ blockTag: 'latest' }) : await client.getBlock({ blockNumber })
    return { number: b.number as bigint, hash: b.hash as Hex, parentHash: b.parentHash, timestamp: b.timestamp }
  }

  let l1Problem: string | undefined
  /**
   * The block's L1 fee parameters; a chain said to be OP-stack whose oracle does not answer (no
   * code, a revert) is priced without L1 fee and says so once per reason. A transport failure fails
   * the refresh like any read.
   */
  const readL1 = async (blockNumber: bigint) => {
    if (!chain.opStack) return undefined
    try {
      const parameters = await readL1FeeParameters({ client, blockNumber })
      l1Problem = undefined
      return parameters
    } catch (error) {
      if (isTransportError(error)) throw error
      const reason = describeRefreshError(error).split('; ')[0]
      if (reason !== l1Problem)
        log(`market: no L1 fee at block ${blockNumber}: the GasPriceOracle predeploy did not answer (${reason}); quotes carry L2 gas only`)
      l1Problem = reason
      return undefined
    }
  }
  const readFees = async (blockNumber: bigint): Promise<BlockFees> => {
    const [gasPriceWei, l1] = await Promise.all([client.getGasPrice(), readL1(blockNumber)])
    const perLegWei = l1 ? l1FeePerBytesWei({ parameters: l1, extraBytes: l1BytesPerLeg }) : 0n
    const l1GasPerLeg = gasPriceWei > 0n ? Number((perLegWei + gasPriceWei - 1n) / gasPriceWei) : 0
    return { gasPriceWei, l1, l1GasPerLeg }
  }

  /**
   * Reads `refs` at `at` and applies them to the solver as that block, in one step. A node may
   * answer a read at its head block from the state of the block it is mining (anvil does: its live
   * state moves before its head number), so once the reads are done the head is asked again: if it
   * moved on, the reads are repeated, now at a block behind the head, which every node serves from
   * that block's own state. If the block read at is no longer the chain's (a reorg under the
   * reads), nothing is applied: the next step handles the reorg.
   */
  const apply = async (refs: PoolRef[], at: Head, previousOf?: (ref: PoolRef) => PoolSnapshot | undefined) => {
    const toBlock = at.number
    const nextBlock = { number: toBlock + 1n, timestamp: at.timestamp + BigInt(chain.blockTimeSec) }
    const read = () =>
      Promise.all([
        readPoolSnapshots({
          client,
          refs,
          adapterOf,
          blockNumber: toBlock,
          nextBlock,
          concurrency: readConcurrency,
          previousOf,
          executor: chain.router,
        }),
        readFees(toBlock),
      ])
    let [{ snapshots, unusable }, blockFees] = await read()
    const after = await getHead()
    if (refs.length > 0 && after.number > toBlock) [{ snapshots, unusable }, blockFees] = await read()
    if (after.number < toBlock)
      throw new MarketError(`the node's head ${after.number} is behind block ${toBlock} being read (a lagging node): nothing applied`)
    const canonical =
      after.number === toBlock
        ? after.hash
        : after.number === toBlock + 1n
          ? after.parentHash
          : after.number > toBlock
            ? (await getHead(toBlock)).hash
            : undefined
    if (canonical !== at.hash)
      throw new MarketReorgError(`block ${toBlock} (${at.hash}) left the chain while its pools were read: nothing applied`)

    if (minLiquidityWei > 0n && (steps % PRICE_REFRESH_STEPS === 0 || prices.size === 0)) {
      const pools: PoolInput[] = [...inSolver.values()].map((s) => s.input)
      prices = tokenPricesInWeth({ pools: [...pools, ...snapshots.map((s) => s.input)], weth: chain.weth, minLiquidityWei })
    }
    steps++
    const verdicts = new Map<string, string>()
    // Never routable again: a denied token, a fee-on-transfer or rebasing one. These pools stop being followed.
    const dropped = new Set<string>()
    // Denied and shallow pools are left out before their tokens are screened: screening costs calls
    // per token, and such a pool is not routed whatever its tokens do. A shallow pool stays followed
    // and is screened once liquidity brings it above the floor.
    const floor = new Map(snapshots.map((s) => [s.ref.id, leftOutReason({ pool: s.input, denied, prices, minLiquidityWei })]))
    const deepEnough = snapshots.filter((s) => floor.get(s.ref.id) === undefined)
    const behaviour = tokens ? await tokens.screen(deepEnough, toBlock) : new Map<string, { token: Address; reason: string }>()
    for (const s of snapshots) {
      const reason = behaviour.get(s.ref.id)?.reason ?? floor.get(s.ref.id)
      if (reason) verdicts.set(s.ref.id, reason)
      if (behaviour.has(s.ref.id) || reason?.includes('deny list')) dropped.add(s.ref.id)
    }
    // The depth of each pool left below the floor is stored, so a restart need not read it again.
    const shallow = snapshots
      .filter((s) => floor.get(s.ref.id) !== undefined && !dropped.has(s.ref.id))
      .map((s) => ({ id: s.ref.id, blockNumber: toBlock, depthWei: poolDepthWei({ pool: s.input, prices }) ?? null }))
    const stillShallow = new Set(shallow.map((d) => d.id))
    const deep = snapshots.map((s) => s.ref.id).filter((id) => shallowIds.has(id) && !stillShallow.has(id))
    const entering = snapshots.filter((s) => !verdicts.has(s.ref.id))
    const leaving = [...unusable.map((u) => u.ref.id), ...verdicts.keys()].filter((id) => inSolver.has(id))
    // A pool read again as the solver holds it (an always-refreshed pool that nothing moved: most
    // of them, most blocks) is not sent again: the same input decodes to the same state, and the
    // solver keeps what it built from that state (the E-CLP's and DODO's bound curves,
    // `solver-rs/src/pools/curve_memo.rs`), which a new copy of it would build again at the next quote.
    const moved = entering.filter((s) => !sameInput(inSolver.get(s.ref.id)?.input, s.input))
    // A pool that became unusable leaves the solver with the block that made it so.
    const { rejected } = await solver.applyBlock({
      blockNumber: Number(toBlock),
      upserts: moved.map((s) => s.input),
      removals: leaving,
      l1GasPerLeg: blockFees.l1GasPerLeg,
    })
    const refused = new Map(rejected.map((r) => [r.id, `solver refused it: ${r.reason}`]))
    const accepted = entering.filter((s) => !refused.has(s.ref.id))
    const enteringIds = new Set(entering.map((s) => s.ref.id))
    // The solver also takes off live pools it was not sent this block: a Curve base pool once a
    // meta pool over it arrives (one venue per shared state). They leave the list as any refused pool.
    const takenOff = rejected.flatMap((r) => {
      const live = enteringIds.has(r.id) ? undefined : inSolver.get(r.id)
      return live ? [{ ref: live.ref, reason: refused.get(r.id) as string }] : []
    })
    const left = [
      ...unusable,
      ...snapshots.filter((s) => verdicts.has(s.ref.id)).map((s) => ({ ref: s.ref, reason: verdicts.get(s.ref.id) as string })),
      ...entering.filter((s) => refused.has(s.ref.id)).map((s) => ({ ref: s.ref, reason: refused.get(s.ref.id) as string })),
      ...takenOff,
    ]
    const removed = left.map((r) => r.ref.id).filter((id) => inSolver.has(id))
    if (accepted.length > 0 || left.length > 0) poolList = undefined
    for (const snapshot of accepted) {
      for (const token of snapshot.input.tokens) heldOut.get(token.toLowerCase())?.delete(snapshot.ref.id)
      inSolver.set(snapshot.ref.id, snapshot)
      versions.record(snapshot.ref.id, toBlock, snapshot)
      skips.delete(snapshot.ref.id)
    }
    for (const { ref, reason } of left) {
      if (inSolver.has(ref.id)) versions.record(ref.id, toBlock, undefined)
      inSolver.delete(ref.id)
      skip({ id: ref.id, dex: ref.dex, reason: `left out at block ${toBlock}: ${reason}` })
      // A denied, fee-on-transfer or rebasing token never becomes routable: stop following its
      // pools. Shallow pools stay followed: liquidity added later brings them in.
      if (dropped.has(ref.id)) known.delete(ref.id)
      const token = behaviour.get(ref.id)?.token
      if (token) heldOut.set(token, (heldOut.get(token) ?? new Map()).set(ref.id, ref))
    }
    if (shallow.length > 0 || deep.length > 0) {
      store.save({ pools: [], cursors: [], shallow, deep })
      for (const { id } of shallow) shallowIds.add(id)
      for (const id of deep) shallowIds.delete(id)
    }
    head = at
    history.push({ number: at.number, hash: at.hash, reread: refs.map((r) => r.id) })
    if (history.length > reorgDepth) history.shift()
    fees.set(toBlock, blockFees)
    for (const block of fees.keys()) if (fees.size > FEES_KEPT && block < toBlock) fees.delete(block)
    lastSyncAt = now()
    lastError = undefined
    return {
      upserted: accepted.map((s) => s.ref.id).sort(),
      removed: removed.sort(),
      skipped: left.map(({ ref, reason }) => ({ id: ref.id, reason })),
    }
  }

  /** The logs of [fromBlock, toBlock] the followed pools and the deployments emitted: changes and new pools. */
  const followedLogs = async (fromBlock: bigint, toBlock: bigint) => {
    const filters = followedLogFilters({ refs: known.values(), adapters, sources, maxPerFilter: maxAddressesPerFilter })
    const logs = (
      await Promise.all(filters.map((f) => fetchLogsInRange({ client, fromBlock, toBlock, ...f, maxBlockRange: maxLogBlockRange })))
    ).flat()
    const classified = classifyLogs({ logs, sourceAdapter, emitterDex, adapters, isKnown: (id) => known.has(id) })
    // A registry's event names no pool: the pools past its listed count are the new ones.
    for (const source of classified.registriesGrown) classified.discovered.push(...(await listRegistry(source, toBlock)))
    for (const s of classified.skipped) skip(s)
    if (classified.discovered.length > 0 || classified.skipped.length > 0) {
      store.save({
        pools: [
          ...classified.discovered.map((ref) => ({ ref })),
          ...classified.skipped.map((s) => ({ ref: { id: s.id, dex: s.dex, emitter: sourceOf(s.dex) }, skipped: s.reason })),
        ],
        cursors: [],
      })
    }
    return classified
  }
  const sourceOf = (dex: DexId) => sources.find((s) => s.dex === dex)?.source ?? ('0x' as Address)
  const saveCursors = (toBlock: bigint) => {
    const scanned = sources.filter((s) => s.fromBlock !== undefined && !s.registry)
    if (scanned.length > 0)
      store.save({
        pools: [],
        cursors: scanned.map((s) => ({ source: s.source, dex: s.dex, fromBlock: s.fromBlock as bigint, lastScanned: toBlock })),
      })
  }

  const guarded = (step: () => Promise<RefreshReport>) => {
    if (running) return running
    running = step()
      .then((report) => {
        failures = 0
        return report
      })
      .catch((error: unknown) => {
        failures++
        lastError = redact(describeRefreshError(error))
        log(`market: refresh failed (snapshot stays at block ${head?.number}): ${lastError}`)
        throw error
      })
      .finally(() => {
        running = undefined
      })
    return running
  }

  const coldStart = async (): Promise<RefreshReport> => {
    const started = now()
    const at = await getHead()
    discovery = { ...discovery, phase: 'scanning' }
    const stored = await discoverDeployments({
      client,
      deployments: sources,
      adapters,
      store,
      toBlock: at.number,
      maxBlockRange: maxLogBlockRange,
      callsPerSecond: discoveryCallsPerSecond,
      maxInFlight: discoveryMaxInFlight,
      signal: stopping.signal,
      onProgress: (progress) => {
        discovery = {
          phase: 'scanning',
          scannedBlocks: progress.allScannedBlocks,
          totalBlocks: progress.allTotalBlocks,
          pools: progress.pools,
          ranges: progress.ranges,
          rangeBlocks: progress.rangeBlocks,
          etaMs: progress.etaMs,
        }
        onProgress?.(progress)
      },
      now,
    })
    discovery = { ...discovery, phase: 'readingPools', scannedBlocks: discovery.totalBlocks, pools: stored.length, etaMs: undefined }
    for (const { ref, skipped } of stored) {
      if (skipped) skips.set(ref.id, { id: ref.id, dex: ref.dex, reason: skipped })
      else follow(ref)
    }
    // Registries are listed whole at the head on every start: a few calls per hundred pools.
    for (const { source } of sources.filter((s) => s.registry)) {
      listedCount.delete(source)
      for (const ref of await listRegistry(source, at.number)) follow(ref)
    }
    for (const pool of chain.pools) {
      const adapter = adapters.get(pool.dex)
      if (!adapter) {
        log(`market: configured ${pool.dex} pool ${pool.address} has no adapter`)
        continue
      }
      const ref = adapter.refOfConfiguredPool(pool, firstDeployment(chain.deployments, pool.dex))
      if (!known.has(ref.id)) follow(ref)
    }
    const refs = [...known.values()]
    const unread = await shallowSinceStored(refs, at.number)
    const applied = await apply(
      refs.filter((r) => !unread.has(r.id)),
      at,
    )
    discovery = { ...discovery, phase: 'done' }
    const ids = refs.map((r) => r.id).sort()
    const report = {
      fromBlock: at.number,
      toBlock: at.number,
      changed: [],
      alwaysRefreshed: [],
      discovered: ids,
      reread: ids.filter((id) => !unread.has(id)),
      ...applied,
      durationMs: now() - started,
    }
    log(
      `market: cold start at block ${at.number}: ${report.upserted.length} pools in the solver, ${skips.size} left out, ${report.durationMs} ms`,
    )
    return report
  }

  /**
   * The stored pools a restart need not read: below the floor at their last read (at most
   * `SHALLOW_KEPT_BLOCKS` ago, at a depth still below today's floor) and without a log since, which
   * their `eth_getLogs` over the blocks since say (one filter per 1,000 pools and range). They stay
   * followed and listed as left out; their next event reads them.
   */
  const shallowSinceStored = async (refs: readonly PoolRef[], toBlock: bigint): Promise<Set<string>> => {
    const stored = new Map(store.shallow().map((d) => [d.id, d]))
    for (const id of stored.keys()) shallowIds.add(id)
    if (minLiquidityWei === 0n) return new Set()
    const candidates = refs.flatMap((ref) => {
      const d = stored.get(ref.id)
      const keep =
        d !== undefined &&
        d.blockNumber <= toBlock &&
        toBlock - d.blockNumber <= SHALLOW_KEPT_BLOCKS &&
        (d.depthWei === null || d.depthWei < minLiquidityWei)
      return keep ? [{ ref, depth: d }] : []
    })
    if (candidates.length === 0) return new Set()
    const since = candidates.reduce((min, { depth }) => (depth.blockNumber < min ? depth.blockNumber : min), toBlock)
    const pools = candidates.map((c) => c.ref)
    const filters = followedLogFilters({ refs: pools, adapters, sources: [], maxPerFilter: maxAddressesPerFilter })
    const logs = (
      await Promise.all(
        filters.map((f) => fetchLogsInRange({ client, fromBlock: since + 1n, toBlock, ...f, maxBlockRange: maxLogBlockRange })),
      )
    ).flat()
    const ids = new Set(pools.map((r) => r.id))
    const { changed } = classifyLogs({
      logs,
      sourceAdapter: new Map(),
      emitterDex: new Map(pools.map((r) => [r.emitter, r.dex])),
      adapters,
      isKnown: (id) => ids.has(id),
    })
    const unread = new Set<string>()
    for (const { ref, depth } of candidates) {
      const lastLog = changed.get(ref.id)
      if (lastLog !== undefined && lastLog > depth.blockNumber) continue
      unread.add(ref.id)
      const what = depth.depthWei === null ? 'no price to value it by' : `liquidity ${depth.depthWei} wei of WETH`
      skips.set(ref.id, {
        id: ref.id,
        dex: ref.dex,
        reason: `left out at block ${depth.blockNumber}: ${what}, below the floor of ${minLiquidityWei} (not read at this start: no log of it since; its next event reads it)`,
      })
    }
    if (unread.size > 0)
      log(`market: ${unread.size} pools stored below the floor have no log since their last read: not read at this start`)
    return unread
  }

  /** The report of a refresh that applied nothing (the node lagging, or no new block). */
  /** What a step read, as its report lists it (each list sorted). */
  const readsOf = (step: {
    fromBlock: bigint
    toBlock: bigint
    changed: ReadonlyMap<string, unknown>
    always: string[]
    discovered: PoolRef[]
    ids: Set<string>
  }): Pick<RefreshReport, 'fromBlock' | 'toBlock' | 'changed' | 'alwaysRefreshed' | 'discovered' | 'reread'> => ({
    fromBlock: step.fromBlock,
    toBlock: step.toBlock,
    changed: [...step.changed.keys()].sort(),
    alwaysRefreshed: step.always.sort(),
    discovered: step.discovered.map((r) => r.id).sort(),
    reread: [...step.ids].sort(),
  })
  const unchanged = (fromBlock: bigint, toBlock: bigint, started: number): RefreshReport => ({
    fromBlock,
    toBlock,
    changed: [],
    alwaysRefreshed: [],
    discovered: [],
    reread: [],
    upserted: [],
    removed: [],
    skipped: [],
    durationMs: now() - started,
  })

  /** The last applied block still on the chain, walking back the applied steps; undefined past `reorgDepth`. */
  const commonAncestor = async (newHead: Head): Promise<Applied | undefined> => {
    for (let i = history.length - 1; i >= 0; i--) {
      const applied = history[i]
      if (applied.number > newHead.number) continue
      const canonical = applied.number === newHead.number ? newHead.hash : (await getHead(applied.number)).hash
      if (canonical === applied.hash) return applied
    }
    return undefined
  }

  const step = async (): Promise<RefreshReport> => {
    const started = now()
    if (head === undefined) throw new MarketError('refresh before start')
    const current = head
    const at = await getHead()
    if (at.number < current.number) {
      // A head behind ours: a fallback node lagging a block or two (nodes disagree), not a reorg.
      // Never rolled back to: a real reorg to a shorter branch is handled once that branch reaches
      // our block (a block time later), when its hash there differs. The snapshot's age is not
      // renewed: no node confirmed it.
      if (behindAt !== at.number)
        log(
          `market: the node's head ${at.number} is behind the market's block ${current.number}: a lagging node; kept at ${current.number}`,
        )
      behindAt = at.number
      return unchanged(current.number + 1n, current.number, started)
    }
    behindAt = undefined
    const ours =
      at.number === current.number
        ? at.hash
        : at.number === current.number + 1n
          ? at.parentHash
          : at.number > current.number
            ? (await getHead(current.number)).hash
            : undefined
    if (ours !== current.hash) return handleReorg(at, started)
    const fromBlock = current.number + 1n
    if (at.number < fromBlock) {
      lastSyncAt = now()
      lastError = undefined
      return unchanged(fromBlock, at.number, started)
    }
    const { discovered, changed } = await followedLogs(fromBlock, at.number)
    const always = [...inSolver.values()].filter((s) => s.refreshEveryBlock).map((s) => s.ref.id)
    // Pools left out for a token whose verdict is due again: read, so the screen judges it again.
    const recheck = (tokens?.dueLeftOut(at.number) ?? []).flatMap((token) => [...(heldOut.get(token)?.values() ?? [])])
    const ids = new Set([...changed.keys(), ...always, ...discovered.map((r) => r.id), ...recheck.map((r) => r.id)])
    const refs = [...ids].map((id) => known.get(id) ?? discovered.find((r) => r.id === id) ?? (recheck.find((r) => r.id === id) as PoolRef))
    // A pool re-read only for its event-less part builds on its last snapshot: no event said the rest
    // moved. (After a reorg every pool is read whole: its last snapshot may be of a dropped block.)
    const volatileOnly = new Set(always.filter((id) => !changed.has(id)))
    const applied = await apply(refs, at, (ref) => (volatileOnly.has(ref.id) ? inSolver.get(ref.id) : undefined))
    for (const ref of discovered) follow(ref)
    // A pool whose token is plain again is followed again (left out once more: held out again by apply).
    for (const ref of recheck) if (![...heldOut.values()].some((pools) => pools.has(ref.id))) follow(ref)
    saveCursors(at.number)
    const report = {
      ...readsOf({ fromBlock, toBlock: at.number, changed, always, discovered, ids }),
      ...applied,
      durationMs: now() - started,
    }
    if (refs.length > 0) log(`market: blocks ${fromBlock}..${at.number}: re-read ${refs.length} pools in ${report.durationMs} ms`)
    return report
  }

  /**
   * The block the snapshot is at left the chain. Quotes are refused from here until the market is
   * at the new head (`assertFresh`, `isSettled`). The pools read for every dropped step, and those
   * whose events are on the new branch after the common ancestor, are re-read at the new head;
   * without a common ancestor within `reorgDepth` steps, every followed pool is.
   */
  const handleReorg = async (at: Head, started: number): Promise<RefreshReport> => {
    reorgs++
    reorging = true
    const droppedFrom = head?.number ?? at.number
    try {
      const ancestor = await commonAncestor(at)
      ancestors.set(reorgs, ancestor?.number ?? -1n)
      for (const count of ancestors.keys()) if (count <= reorgs - ANCESTORS_KEPT) ancestors.delete(count)
      const dropped = history.filter((h) => !ancestor || h.number > ancestor.number)
      const fromBlock = ancestor ? ancestor.number + 1n : (history[0]?.number ?? at.number)
      log(
        `market: reorg: block ${droppedFrom} (${head?.hash}) is not on the chain any more; ${ancestor ? `common ancestor ${ancestor.number}` : `no common ancestor in the last ${history.length} steps: rebuilding`}; new head ${at.number}`,
      )
      const { discovered, changed } = await followedLogs(fromBlock, at.number)
      for (const ref of discovered) follow(ref)
      const always = [...inSolver.values()].filter((s) => s.refreshEveryBlock).map((s) => s.ref.id)
      const ids = ancestor
        ? new Set([...dropped.flatMap((d) => d.reread), ...changed.keys(), ...always, ...discovered.map((r) => r.id)])
        : new Set(known.keys())
      const refs = [...ids].flatMap((id) => known.get(id) ?? [])
      history.splice(0, history.length, ...history.filter((h) => ancestor && h.number <= ancestor.number))
      if (ancestor) versions.dropAfter(ancestor.number)
      const applied = await apply(refs, at)
      saveCursors(at.number)
      return {
        ...readsOf({ fromBlock, toBlock: at.number, changed, always, discovered, ids }),
        ...applied,
        reorg: { commonAncestor: ancestor?.number, droppedFrom, rebuilt: !ancestor },
        durationMs: now() - started,
      }
    } finally {
      reorging = false
    }
  }

  const schedule = () => {
    if (stopped || pollIntervalMs <= 0) return
    // A failing chain is asked less often: the delay doubles per failure in a row, up to maxPollBackoffMs.
    const delay = failures === 0 ? pollIntervalMs : Math.min(maxPollBackoffMs, pollIntervalMs * 2 ** Math.min(failures, 16))
    timer = setTimeout(() => {
      guarded(step).then(schedule, schedule)
    }, delay)
  }
  const freshness = () => {
    const ageMs = lastSyncAt === undefined ? Number.POSITIVE_INFINITY : now() - lastSyncAt
    return {
      blockNumber: head?.number,
      blockTimestamp: head?.timestamp,
      blockHash: head?.hash,
      ageMs,
      stale: ageMs > maxSnapshotAgeMs,
      lastError,
      reorgs,
    }
  }
  return {
    start: async () => {
      if (head !== undefined) throw new MarketError('already started')
      const report = await guarded(coldStart)
      schedule()
      return report
    },
    refresh: () => guarded(step),
    freshness,
    assertFresh: () => {
      const f = freshness()
      if (f.stale) throw new MarketStaleError({ ageMs: f.ageMs, maxSnapshotAgeMs, lastError: f.lastError })
      if (reorging) throw new MarketReorgingError({ blockNumber: f.blockNumber, ageMs: f.ageMs })
    },
    isSettled: (count, blockNumber) => {
      if (count === reorgs) return !reorging
      if (blockNumber === undefined) return false
      for (let k = count + 1; k <= reorgs; k++) {
        const ancestor = ancestors.get(k)
        if (ancestor === undefined || ancestor < blockNumber) return false
      }
      return true
    },
    feesAt: (blockNumber) =>
      (blockNumber === undefined || blockNumber === null ? undefined : fees.get(BigInt(blockNumber))) ??
      (head ? fees.get(head.number) : undefined),
    pools: () => (poolList ??= [...inSolver.values()]),
    poolAt: (poolId, blockNumber) => {
      const at = blockNumber ?? head?.number
      return at === undefined ? undefined : versions.at(poolId.toLowerCase(), at)
    },
    skipped: () => [...skips.values()],
    followed: () => known.size,
    discovery: () => discovery,
    tokenScreening: () => tokens?.status(),
    encodeLeg: (poolId, direction) => {
      const snapshot = inSolver.get(poolId.toLowerCase())
      if (!snapshot) throw new MarketError(`pool ${poolId} is not in the market`)
      return adapterOf(snapshot.ref).encodeLeg(snapshot.ref, direction)
    },
    stop: async () => {
      stopped = true
      stopping.abort()
      if (timer) clearTimeout(timer)
      await running?.catch(() => undefined)
    },
  }
}
