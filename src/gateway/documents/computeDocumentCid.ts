import { createHash } from 'node:crypto'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { create as createDigest } from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'

/**
 * The IPFS CID of a document's exact bytes: CIDv1, raw codec, sha2-256, base32 (`bafkrei…`). It
 * is the CID Kubo gives a single-chunk file added with `--cid-version=1` (raw leaves), so a
 * document pinned later keeps the address computed here.
 *
 * @example
 * computeDocumentCid(new Uint8Array()) // 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
 */
export function computeDocumentCid(bytes: Uint8Array): string {
  const digest = createDigest(sha256.code, createHash('sha256').update(bytes).digest())
  return CID.create(1, raw.code, digest).toString()
}
