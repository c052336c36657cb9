import type { Address, Hex } from 'viem'

/** An announcement a creator signed (EIP-712, `announcementTypedData`) about one of their tokens. */
export type SeededAnnouncement = {
  id: Hex
  chainId: number
  token: Address
  author: Address
  title: string
  body: string
  /** Unix seconds (chain time). */
  issuedAt: number
  signature: Hex
}

/** A metadata document, as canonical JSON, and its CID (`computeDocumentCid`). */
export type SeededDocument = { cid: string; content: string }

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
