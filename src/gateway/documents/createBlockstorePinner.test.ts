import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'vitest'
import { FsBlockstore } from 'blockstore-fs'
import { CID } from 'multiformats/cid'
import { computeDocumentCid } from './computeDocumentCid.ts'
import { createBlockstorePinner } from './createBlockstorePinner.ts'

test('the embedded blockstore keeps the document under its CID on disk: another blockstore on the same directory reads it back', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pinner-test-'))
  try {
    const bytes = new TextEncoder().encode('{"name":"Moon","symbol":"MOON"}')
    const cid = computeDocumentCid(bytes)
    const pinner = await createBlockstorePinner({ dir })
    assert.equal(pinner.target, 'embedded')
    await pinner.pin({ cid, bytes })
    await pinner.pin({ cid, bytes }) // pinning again is a no-op, as in Kubo
    await pinner.close()

    const reopened = new FsBlockstore(dir)
    await reopened.open()
    assert.equal(await reopened.has(CID.parse(cid)), true)
    const chunks: Uint8Array[] = []
    for await (const chunk of reopened.get(CID.parse(cid))) chunks.push(chunk)
    assert.deepEqual(new Uint8Array(Buffer.concat(chunks)), bytes)
    await reopened.close()
    // One block file, in its shard directory.
    const shards = await readdir(dir)
    assert.equal(shards.length, 1)
    assert.equal((await readdir(join(dir, shards[0]))).length, 1)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('a blockstore that cannot be written answers the mapped dependency problem, not a raw error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pinner-test-'))
  const pinner = await createBlockstorePinner({ dir })
  await rm(dir, { recursive: true, force: true })
  // A file where the blockstore directory was: nothing can be created under it.
  await (await import('node:fs/promises')).writeFile(dir, 'not a directory')
  try {
    const bytes = new TextEncoder().encode('{}')
    await assert.rejects(pinner.pin({ cid: computeDocumentCid(bytes), bytes }), (error: Error & { code?: string }) => {
      assert.equal(error.name, 'GatewayProblem')
      assert.equal(error.code, 'upstream_error')
      return true
    })
  } finally {
    await rm(dir, { force: true })
  }
})
