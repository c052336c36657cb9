import type { Address, PublicClient } from 'viem'
import type { DexId, Solver } from '../../bindings/types.ts'
import type { LegData, LegDirection, PoolSnapshot } from '../adapters/PoolAdapter.ts'
import type { ChainConfig } from '../chains/ChainConfig.ts'
import type { L1FeeParameters } from '../chains/opStack/L1FeeParameters.ts'
import type { PoolVersion } from './createPoolVersions.ts'
import type { DiscoveryProgress } from './discoverDeployments.ts'
import type { MarketStore } from './store/MarketStore.ts'
import type { TokenScreenStatus } from './tokens/createTokenScreen.ts'

export type CreateMarketStateParameters = {
  client: PublicClient
  chain: ChainConfig
  solver: Pick<Solver, 'applyBlock'>
  /** Older than this since the last successful sync with the chain head, the snapshot is stale. */
  maxSnapshotAgeMs: number
  /** Delay between the end of one refresh and the next poll; 0: no loop (call `refresh()` yourself). */
  pollIntervalMs?: number
  /** Longest delay between polls while the chain keeps failing (the delay doubles per failure up to it; default 5000 ms). */
  maxPollBackoffMs?: number
  /** Batched pool reads (`eth_call`s of up to 500 calls, docs/real-chain.md "Batched pool reads") in flight at once. */
  readConcurrency?: number
  /** Blocks per `eth_getLogs` at most (default 2,000; discovery's ranges start there and adapt to refusals). */
  maxLogBlockRange?: bigint
  /** Discovery's `eth_getLogs` calls started per second at the cold start (default 0: no bound). */
  discoveryCallsPerSecond?: number
  /** Discovery's `eth_getLogs` calls in flight at once at the cold start (default 4). */
  discoveryMaxInFlight?: number
  /** Addresses (or V4 pool ids) per `eth_getLogs` filter. */
  maxAddressesPerFilter?: number
  /** Discovered pools and scan cursors (default: in memory, for the process's life). */
  store?: MarketStore
  /** Tokens whose pools are left out (lowercase or checksummed addresses). */
  denyTokens?: readonly Address[]
  /** Pools shallower than this many wei of WETH are left out (default 0: no floor). */
  minLiquidityWei?: bigint
  /**
   * Blocks back over which a token's balance in a pool must move only by its Transfer events (the
   * rebasing check; default 1,800: an hour of Base). 0 checks transfers only. Docs: real-chain.md.
   */
  tokenWindowBlocks?: bigint
  /** A token's verdict is judged again this many blocks after it was reached (default 43,200: a day of Base). */
  tokenRecheckAfterBlocks?: bigint
  /** Whether tokens are judged at all (fee on transfer, rebasing; default true). */
  checkTokens?: boolean
  /** Applied blocks remembered to find where a reorg forked (default 64); a deeper reorg rebuilds the market. */
  reorgDepth?: number
  /** Calldata bytes one more leg adds to a swap (for its L1 data fee, OP-stack chains only). */
  l1BytesPerLeg?: bigint
  /** Discovery's progress at the cold start. */
  onProgress?: (progress: DiscoveryProgress) => void
  /** Where skip reasons, errors and timings go; default `console.log`. */
  log?: (line: string) => void
  /**
   * Applied to every log line and to `lastError` (the service passes its secret redactor: viem's
   * errors carry the RPC URL, with a hosted provider's key in it). Default: unchanged.
   */
  redact?: (text: string) => string
  now?: () => number
}

/** Where the cold start is (`GET /ready`, the discovery gauges of `/metrics`). */
export type DiscoveryStatus = {
  /** notStarted → scanning (the `eth_getLogs` ranges) → readingPools (every followed pool at one block) → done. */
  phase: 'notStarted' | 'scanning' | 'readingPools' | 'done'
  /** Blocks of the deployments' histories scanned by this start, and to scan in all (what was stored is not counted). */
  scannedBlocks: bigint
  totalBlocks: bigint
  /** Pools found so far, those stored by an earlier start included. */
  pools: number
  /** `eth_getLogs` ranges fetched by this start. */
  ranges: number
  /** Discovery's range size now (it adapts to the node's refusals). */
  rangeBlocks: bigint
  /** Until the scan ends, at this start's pace; undefined before the first range and after the scan. */
  etaMs: number | undefined
}

export type MarketFreshness = {
  /** The block every pool in the solver was read at; undefined before the cold start. */
  blockNumber: bigint | undefined
  blockTimestamp: bigint | undefined
  /** That block's hash. */
  blockHash: `0x${string}` | undefined
  /** Milliseconds since the snapshot was last confirmed to be at the chain head (Infinity: never). */
  ageMs: number
  stale: boolean
  /** The last refresh's error, cleared by the next successful one. */
  lastError: string | undefined
  /** Reorgs handled since the start. */
  reorgs: number
}

/** What one block's transactions pay besides their pools: read by the market with the block. */
export type BlockFees = {
  /** `eth_gasPrice` when the block was applied, wei per gas. */
  gasPriceWei: bigint
  /** The block's L1 fee parameters (OP-stack chains only). */
  l1: L1FeeParameters | undefined
  /** The L1 data fee of one leg's calldata in L2 gas at `gasPriceWei`, rounded up (0 without L1 fee). */
  l1GasPerLeg: number
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
  /** Set when the step handled a reorg: the last block both chains share, and whether the market was rebuilt. */
  reorg?: { commonAncestor: bigint | undefined; droppedFrom: bigint; rebuilt: boolean }
  durationMs: number
}

export type MarketState = {
  /** Cold start: discover, read every pool at one block, upsert them; then poll (when `pollIntervalMs` > 0). */
  start: () => Promise<RefreshReport>
  /** One step: new head → reorg check → logs → re-read the pools that changed at the head → apply. */
  refresh: () => Promise<RefreshReport>
  freshness: () => MarketFreshness
  /** Throws `MarketStaleError` when quotes must be refused (stale, or a reorg being handled). */
  assertFresh: () => void
  /**
   * Whether a plan priced at `blockNumber`, solved from when `reorgs` was the reorg count, is priced
   * on the canonical chain as the market knows it: no reorg was detected since and none is being
   * handled, or every reorg detected since kept that block (its common ancestor is at or after it:
   * only later blocks were dropped). Without `blockNumber`, only the first.
   */
  isSettled: (reorgs: number, blockNumber?: bigint) => boolean
  /** The fees read with `blockNumber` (kept for the last few blocks), or the latest. */
  feesAt: (blockNumber: bigint | number | undefined) => BlockFees | undefined
  /**
   * The pools in the solver, as read: the same array until the pools change (a block that reads
   * or leaves out some), so a caller may keep what it derives from it per array.
   */
  pools: () => readonly PoolSnapshot[]
  /** The cold start's progress. */
  discovery: () => DiscoveryStatus
  /** What token screening has judged and could not (undefined: `checkTokens` off). */
  tokenScreening: () => TokenScreenStatus | undefined
  /**
   * The pool as the solver priced it at `blockNumber` (default the market's block), with the block
   * it was read at; kept for the last few versions of each pool (`createPoolVersions`). Undefined:
   * not in the market then, or not remembered that far back.
   */
  poolAt: (poolId: string, blockNumber?: bigint) => PoolVersion | undefined
  /** Known pools left out of the solver, with why. */
  skipped: () => { id: string; dex: DexId; reason: string }[]
  /** Pools followed (read when their events say so), in the solver or not. */
  followed: () => number
  /** The leg through a pool of the market, in `direction` (a kind whose leg names its tokens needs it). */
  encodeLeg: (poolId: string, direction?: LegDirection) => LegData
  stop: () => Promise<void>
}
