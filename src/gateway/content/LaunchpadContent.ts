import type { Address, Hex } from 'viem'

// The launchpad content the gateway imports (`importLaunchpadContent`): the seeded devnet writes
// it (`src/devnet/launchpad/`), the gateway owns its shape.

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
