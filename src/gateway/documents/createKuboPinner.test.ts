import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, test } from 'vitest'
import { findKuboBinary, startKubo } from '../../../test/gateway/fixtures/startKubo.ts'
import { type KuboStandIn, startKuboStandIn } from '../../../test/gateway/fixtures/startKuboStandIn.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { computeDocumentCid } from './computeDocumentCid.ts'
import { createKuboPinner } from './createKuboPinner.ts'

// The Kubo pinner against a stand-in speaking Kubo's RPC wire format (what every machine can run):
// the exact request (one `file` part, the import flags that give the locally computed CID, a
// pin), and each failure answered as its mapped problem, never thrown raw or left hanging.

let kubo: KuboStandIn
const bytes = new TextEncoder().encode('{"name":"Moon","symbol":"MOON"}')
const cid = computeDocumentCid(bytes)

beforeAll(async () => {
  kubo = await startKuboStandIn()
})
afterAll(async () => {
  await kubo?.close()
})
beforeEach(() => {
  kubo.mode = 'ok'
  kubo.adds.length = 0
})

async function problemOf(run: () => Promise<unknown>): Promise<GatewayProblem> {
  try {
    await run()
  } catch (error) {
    assert.ok(error instanceof GatewayProblem, String(error))
    return error
  }
  throw new Error('expected a problem')
}

test('pins with one multipart `file` part and the flags that give the local CID; Kubo holds it pinned recursively', async () => {
  await createKuboPinner({ apiUrl: `${kubo.url}/`, timeoutMs: 2000 }).pin({ cid, bytes })
  assert.equal(kubo.adds.length, 1)
  const [add] = kubo.adds
  assert.deepEqual(
    Object.fromEntries(['cid-version', 'hash', 'raw-leaves', 'pin', 'chunker', 'inline', 'trickle'].map((k) => [k, add.query[k]])),
    { 'cid-version': '1', hash: 'sha2-256', 'raw-leaves': 'true', pin: 'true', chunker: 'size-262144', inline: 'false', trickle: 'false' },
  )
  assert.match(add.contentType, /^multipart\/form-data; boundary=/)
  assert.equal(add.parts.length, 1)
  assert.equal(add.parts[0].headers['content-disposition'], `form-data; name="file"; filename="${cid}.json"`)
  assert.equal(add.parts[0].headers['content-type'], 'application/octet-stream')
  assert.deepEqual(new Uint8Array(add.parts[0].body), bytes)
  const pins = await (await fetch(`${kubo.url}/api/v0/pin/ls?arg=${cid}&type=recursive`, { method: 'POST' })).json()
  assert.deepEqual(pins, { Keys: { [cid]: { Type: 'recursive' } } })
  const cat = await fetch(`${kubo.url}/api/v0/cat?arg=${cid}`, { method: 'POST' })
  assert.deepEqual(new Uint8Array(await cat.arrayBuffer()), bytes)
})

test('a node that answers another CID, an error, or a stream that failed: upstream_error (502), naming no URL', async () => {
  const pinner = createKuboPinner({ apiUrl: kubo.url, timeoutMs: 2000 })
  for (const mode of ['wrong_cid', 'error', 'stream_error'] as const) {
    kubo.mode = mode
    const problem = await problemOf(() => pinner.pin({ cid, bytes }))
    assert.deepEqual([mode, problem.code, problem.status], [mode, 'upstream_error', 502])
    assert.doesNotMatch(problem.details.detail, /127\.0\.0\.1|no space/)
  }
})

test('a node that never answers: upstream_timeout (504) at the deadline; a node that is down: temporarily_unavailable (503)', async () => {
  kubo.mode = 'hang'
  const started = Date.now()
  const slow = await problemOf(() => createKuboPinner({ apiUrl: kubo.url, timeoutMs: 300 }).pin({ cid, bytes }))
  assert.deepEqual([slow.code, slow.status], ['upstream_timeout', 504])
  assert.ok(Date.now() - started < 5000, 'answered at its deadline, not hung')

  const down = await startKuboStandIn()
  await down.close()
  const refused = await problemOf(() => createKuboPinner({ apiUrl: down.url, timeoutMs: 2000 }).pin({ cid, bytes }))
  assert.deepEqual([refused.code, refused.status], ['temporarily_unavailable', 503])
})

test('a server that is not Kubo (404, or 200 with a body that is not its NDJSON): upstream_error', async () => {
  const notKubo = createKuboPinner({ apiUrl: `${kubo.url}/elsewhere`, timeoutMs: 2000 })
  assert.equal((await problemOf(() => notKubo.pin({ cid, bytes }))).code, 'upstream_error')
  const html = createServer((_, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy</html>'))
  await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve))
  try {
    const port = (html.address() as AddressInfo).port
    const problem = await problemOf(() => createKuboPinner({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 }).pin({ cid, bytes }))
    assert.equal(problem.code, 'upstream_error')
  } finally {
    html.close()
  }
})

// Where a Kubo binary is present (IPFS_BIN, `ipfs` on PATH, or `go install
// github.com/ipfs/kubo/cmd/ipfs@v0.39.0`'s ~/go/bin/ipfs), the same pin against a real daemon,
// and the stand-in's answer compared with Kubo's own for the same request.
const kuboBin = findKuboBinary()
describe.skipIf(!kuboBin)('against a real Kubo daemon', () => {
  test("Kubo's CID is the local one, pinned recursively; ipfs cat and ipfs block put agree; the stand-in answers as Kubo does", async () => {
    const real = await startKubo(kuboBin!)
    try {
      const document = new TextEncoder().encode(`{"description":"${'x'.repeat(3000)}","name":"Real","symbol":"KUBO"}`)
      const documentCid = computeDocumentCid(document)
      await createKuboPinner({ apiUrl: real.apiUrl, timeoutMs: 10_000 }).pin({ cid: documentCid, bytes: document })
      assert.match(real.ipfs('pin', 'ls', '--type=recursive', documentCid), new RegExp(`^${documentCid} recursive`))
      assert.equal(real.ipfs('cat', documentCid), new TextDecoder().decode(document))
      // The blocks of the embedded blockstore, put into Kubo, keep their CID (docs/gateway/ipfs.md).
      assert.equal(real.ipfs('block', 'stat', documentCid).split('\n')[0].split(/\s+/)[1], documentCid)

      // The same raw request to Kubo and to the stand-in: the same events and streaming headers.
      const boundary = 'compare-boundary'
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.json"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      const answer = async (url: string) => {
        const res = await fetch(`${url}/api/v0/add?cid-version=1&pin=true`, {
          method: 'POST',
          body,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        })
        return {
          status: res.status,
          contentType: res.headers.get('content-type'),
          chunked: res.headers.get('x-chunked-output'),
          trailer: res.headers.get('trailer'),
          events: (await res.text())
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        }
      }
      assert.deepEqual(await answer(kubo.url), await answer(real.apiUrl))
      // Kubo's error form for a bad argument, as the stand-in gives it.
      const bad = async (url: string) => {
        const res = await fetch(`${url}/api/v0/add?cid-version=7`, {
          method: 'POST',
          body,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        })
        const json = (await res.json()) as { Code: number; Type: string }
        return { status: res.status, code: json.Code, type: json.Type }
      }
      assert.deepEqual(await bad(kubo.url), await bad(real.apiUrl))
    } finally {
      await real.stop()
    }
  }, 60_000)
})
