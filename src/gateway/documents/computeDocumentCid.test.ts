import assert from 'node:assert/strict'
import { test } from 'vitest'
import { CID } from 'multiformats/cid'
import { computeDocumentCid } from './computeDocumentCid.ts'

test("CIDv1 raw sha2-256 in base32: the empty document and a JSON one; the CID decodes back to the bytes' hash", async () => {
  // The well-known CID of zero bytes (what `ipfs add --cid-version=1` prints for an empty file).
  assert.equal(computeDocumentCid(new Uint8Array()), 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku')
  const bytes = new TextEncoder().encode('{"name":"Moon"}')
  const cid = CID.parse(computeDocumentCid(bytes))
  assert.equal(cid.version, 1)
  assert.equal(cid.code, 0x55)
  assert.equal(cid.multihash.code, 0x12)
  assert.equal(
    Buffer.from(cid.multihash.digest).toString('hex'),
    (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'),
  )
})
