import { getAddress, type Hex, recoverTypedDataAddress } from 'viem'
import type { SeededAnnouncement, SeededDocument } from './LaunchpadContent.ts'
import { announcementTypedData } from '../announcements/announcementTypedData.ts'
import { computeDocumentCid } from '../documents/computeDocumentCid.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'

export type ImportLaunchpadContentParameters = {
  db: SqlDatabase
  documents: readonly SeededDocument[]
  announcements: readonly SeededAnnouncement[]
  nowIso: string
}

/**
 * Stores off-chain content (the seeded chain's metadata documents and announcements) in the read
 * model, checked first: a document must hash to its CID, an announcement's EIP-712 signature
 * must recover its author. Anything that fails a check is refused with an error, not stored.
 * Idempotent: content already stored is left as it is.
 *
 * @example
 * await importLaunchpadContent({ db, documents: launchpad.documents, announcements: launchpad.announcements, nowIso })
 * // → { documents, announcements }: how many were given, every one checked (CID, signature) and stored once
 */
export async function importLaunchpadContent({
  db,
  documents,
  announcements,
  nowIso,
}: ImportLaunchpadContentParameters): Promise<{ documents: number; announcements: number }> {
  for (const d of documents) {
    if (computeDocumentCid(new TextEncoder().encode(d.content)) !== d.cid)
      throw new Error(`document ${d.cid}: its content does not hash to its CID`)
  }
  for (const a of announcements) {
    const message = { id: a.id, token: a.token, title: a.title, body: a.body, issuedAt: BigInt(a.issuedAt) }
    const signer = await recoverTypedDataAddress({
      ...announcementTypedData({ chainId: a.chainId, message }),
      signature: a.signature as Hex,
    })
    if (signer !== getAddress(a.author)) throw new Error(`announcement ${a.id}: signed by ${signer}, not its author ${a.author}`)
  }
  await db.transaction(async (tx) => {
    for (const d of documents)
      await tx.execute('INSERT INTO documents (cid, content, created_at) VALUES ($1, $2, $3) ON CONFLICT (cid) DO NOTHING', [
        d.cid,
        d.content,
        nowIso,
      ])
    for (const a of announcements) {
      await tx.execute(
        'INSERT INTO announcements (id, chain_id, token, author, title, body, issued_at, signature, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING',
        [
          a.id.toLowerCase(),
          a.chainId,
          a.token.toLowerCase(),
          a.author.toLowerCase(),
          a.title,
          a.body,
          a.issuedAt,
          a.signature.toLowerCase(),
          nowIso,
        ],
      )
    }
  })
  return { documents: documents.length, announcements: announcements.length }
}
