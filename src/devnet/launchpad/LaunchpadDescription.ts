import type { Address } from 'viem'
import type { SeededAnnouncement, SeededDocument } from '../../gateway/content/LaunchpadContent.ts'

/** The seeded launchpad, as `var/devnet.json` lists it under `launchpad`. */
export type LaunchpadDescription = {
  factory: Address
  feeLocker: Address
  vestingVault: Address
  uniswapV3Factory: Address
  weth: Address
  /** The factory's deployment block. */
  fromBlock: number
  /** Paired assets the factory allows. */
  pairedTokens: Address[]
  creators: Address[]
  traders: Address[]
  /** Every launched token, in launch order. */
  tokens: { address: Address; pool: Address; symbol: string; creator: Address }[]
  documents: SeededDocument[]
  announcements: SeededAnnouncement[]
  /** Chain time the simulated week started and ended (Unix seconds). */
  startTimestamp: number
  endTimestamp: number
}
