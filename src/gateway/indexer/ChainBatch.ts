import type { Address, Hex } from 'viem'

/** A block the indexer read: its identity (to detect reorganisations) and its time. */
export type BlockHeader = { number: bigint; hash: Hex; parentHash: Hex; timestamp: bigint }

/** One decoded log of the launchpad, a launched token or a launched pool. */
export type DecodedLog = {
  /** What emitted it: the factory, locker or vault, a launched token, or a launched pool. */
  source: 'factory' | 'feeLocker' | 'vestingVault' | 'token' | 'pool'
  address: Address
  eventName: string
  args: Record<string, unknown>
  blockNumber: bigint
  logIndex: number
  transactionHash: Hex
}

/** Everything the indexer read for a range of blocks, ready to apply in one transaction. */
export type ChainBatch = {
  fromBlock: bigint
  toBlock: bigint
  /** In chain order (block, then log index). */
  logs: DecodedLog[]
  /** Headers of every block with a log, and of `toBlock`. */
  blocks: Map<bigint, BlockHeader>
  /** Sender of each transaction that swapped on a launched pool. */
  senders: Map<Hex, Address>
}
