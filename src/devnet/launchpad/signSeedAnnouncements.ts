import { type Address, type Hex, keccak256, type LocalAccount, toHex } from 'viem'
import { announcementTypedData } from '../../gateway/announcements/announcementTypedData.ts'
import type { SeededAnnouncement } from '../../gateway/content/LaunchpadContent.ts'

export type SignSeedAnnouncementsParameters = {
  chainId: number
  startTimestamp: number
  /** No announcement is dated after the chain's last block. */
  endTimestamp: number
  launches: { token: Address; symbol: string; name: string; hour: number; author: LocalAccount }[]
}

/**
 * A few announcements per week, each signed by its token's creator (EIP-712,
 * `announcementTypedData`): every fourth launch announces itself a day after launch, every eighth
 * posts a second update two days later.
 *
 * @example
 * const announcements = await signSeedAnnouncements({ chainId: 8453, startTimestamp, endTimestamp, launches })
 * // → [{ id, chainId, token, author, title, body, issuedAt, signature }, …]: every fourth launch announces, every eighth twice
 */
export async function signSeedAnnouncements({
  chainId,
  startTimestamp,
  endTimestamp,
  launches,
}: SignSeedAnnouncementsParameters): Promise<SeededAnnouncement[]> {
  const out: SeededAnnouncement[] = []
  for (const [i, l] of launches.entries()) {
    if (i % 4 !== 0) continue
    const posts = [
      { after: 24, title: `${l.name} is live`, body: `${l.symbol} trades on its own pool from today. Fees go to the community wallet.` },
    ]
    if (i % 8 === 0)
      posts.push({ after: 72, title: `${l.symbol} week one`, body: `Thanks for the first days of ${l.name}. Next: a website and a logo.` })
    for (const post of posts) {
      const issuedAt = startTimestamp + (l.hour + post.after) * 3600
      if (issuedAt > endTimestamp) continue
      const id = keccak256(toHex(`announcement ${chainId} ${l.token} ${issuedAt}`))
      const message = { id, token: l.token, title: post.title, body: post.body, issuedAt: BigInt(issuedAt) }
      const signature: Hex = await l.author.signTypedData(announcementTypedData({ chainId, message }))
      out.push({ id, chainId, token: l.token, author: l.author.address, title: post.title, body: post.body, issuedAt, signature })
    }
  }
  return out
}
