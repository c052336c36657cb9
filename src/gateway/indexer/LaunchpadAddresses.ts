import type { Address } from 'viem'

/** Where one chain's launchpad lives, and the block the indexer starts from. */
export type LaunchpadAddresses = {
  chainId: number
  factory: Address
  feeLocker: Address
  vestingVault: Address
  /** The factory's deployment block. */
  fromBlock: bigint
}
