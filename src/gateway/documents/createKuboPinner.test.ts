import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, test } from 'vitest'
import { type KuboStandIn, startKuboStandIn } from '../../../test/gateway/fixtures/startKuboStandIn.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { computeDocumentCid } from './computeDocumentCid.ts'
import { createKuboPinner } from './createKuboPinner.ts'

// The Kubo pinner against a stand-in speaking Kubo's RPC wire format (Kubo cannot be built here):
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
