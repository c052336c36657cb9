import type { Address } from 'viem'
import type { DexId } from '../../../bindings/types.ts'
import type { PoolRef } from '../../adapters/PoolAdapter.ts'
import type { TokenVerdict } from '../tokens/judgeTokenBehaviour.ts'

/** How far one deployment's discovery scan has got. */
export type ScanCursor = {
  /** The deployment's contract whose events announce pools (factory, PoolManager). */
  source: Address
  dex: DexId
  /** The start block the scan began from (a changed start block rescans). */
  fromBlock: bigint
  /** Every discovery log up to this block is in the store (the start block less one: none yet). */
  lastScanned: bigint
  /**
   * Ranges past `lastScanned` already scanned too (discovery fetches ranges concurrently, so they
   * complete out of order): a restart skips them. Absent or empty: none. Saving a cursor replaces them.
   */
  ahead?: BlockRange[]
}

/** Blocks `fromBlock` to `toBlock`, both included. */
export type BlockRange = { fromBlock: bigint; toBlock: bigint }

/** A discovered pool as stored: its ref, or why it is never read (a V4 pool with hooks). */
export type StoredPool = { ref: PoolRef; skipped?: string }

/** A token's judged behaviour (`judgeTokenBehaviour`), so a restart does not probe it again. */
export type StoredToken = { address: Address; verdict: TokenVerdict; blockNumber: bigint }

/**
 * A pool below the liquidity floor at its last read: its depth then (`poolDepthWei`; null: no
 * price to value it by), so a restart does not read it again until an event of it says it changed.
 */
export type StoredDepth = { id: string; blockNumber: bigint; depthWei: bigint | null }

/**
 * Where discovery keeps what it found, so a restart scans only the blocks after the last scan:
 * the discovered pools and each deployment's cursor. Writes of one step are one transaction.
 */
export type MarketStore = {
  readonly chainId: number
  cursors: () => ScanCursor[]
  pools: () => StoredPool[]
  tokens: () => StoredToken[]
  /** The pools below the floor at their last read. */
  shallow: () => StoredDepth[]
  /**
   * Adds pools (a pool already stored is kept as stored), moves cursors, records token verdicts and
   * the depths of pools below the floor (`shallow`; `deep`: ids no longer below it), in one transaction.
   */
  save: (update: { pools: StoredPool[]; cursors: ScanCursor[]; tokens?: StoredToken[]; shallow?: StoredDepth[]; deep?: string[] }) => void
  close: () => void
}
