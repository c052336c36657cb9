import type { Address, Hex, TypedDataDefinition } from 'viem'

/** What a creator signs to publish an announcement about one of their tokens. */
export type AnnouncementMessage = {
  /** Chosen by the gateway when it prepares the announcement; unique. */
  id: Hex
  token: Address
  title: string
  body: string
  /** Unix seconds. */
  issuedAt: bigint
}

/** EIP-712 types of an announcement. */
export const announcementTypes = {
  Announcement: [
    { name: 'id', type: 'bytes32' },
    { name: 'token', type: 'address' },
    { name: 'title', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'issuedAt', type: 'uint64' },
  ],
} as const

/**
 * The EIP-712 typed data of an announcement (domain: the gateway's name, version 1, the token's
 * chain; no verifying contract: the signature is checked off-chain, against the token's creator).
 *
 * @example
 * const signature = await account.signTypedData(announcementTypedData({ chainId: 8453, message }))
 * // → the 65-byte signature (hex) POST …/announcements checks against the token's creator
 */
export function announcementTypedData({
  chainId,
  message,
}: {
  chainId: number
  message: AnnouncementMessage
}): TypedDataDefinition<typeof announcementTypes, 'Announcement'> {
  return {
    domain: { name: 'Launch Gateway Announcements', version: '1', chainId },
    types: announcementTypes,
    primaryType: 'Announcement',
    message,
  }
}
