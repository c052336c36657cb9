import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient, http } from 'viem'
import { isLoopbackHttpUrl, loopbackFetch } from './loopbackFetch.ts'

let server: Server
let url: string

beforeAll(async () => {
  // A JSON-RPC echo on loopback: `eth_chainId` answers 8453, `slow` never answers, `empty` is a 204.
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const call = JSON.parse(body || '{}') as { id?: number; method?: string }
      if (call.method === 'slow') return
      if (call.method === 'empty') return res.writeHead(204).end()
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo-method': req.method })
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: call.method === 'eth_chainId' ? '0x2105' : body }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

test('a POST carries its body and headers and answers a Response with the status, headers and body', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'echo', params: ['é'] })
  const res = await loopbackFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  assert.ok(res instanceof Response)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('x-echo-method'), 'POST')
  assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 7, result: body })
  const bytes = await loopbackFetch(url, { method: 'POST', body: new TextEncoder().encode('{"method":"eth_chainId"}') })
  assert.equal(((await bytes.json()) as { result: string }).result, '0x2105')
})

test('a 204 has no body; a body it cannot send and a refused connection reject', async () => {
  const empty = await loopbackFetch(url, { method: 'POST', body: '{"method":"empty"}' })
  assert.equal(empty.status, 204)
  assert.equal(empty.body, null)
  await assert.rejects(loopbackFetch(url, { method: 'POST', body: new Blob(['x']) }), /body must be a string or bytes/)
  await assert.rejects(loopbackFetch('http://127.0.0.1:1', { method: 'POST', body: '{}' }), /ECONNREFUSED/)
})

test('an aborted signal rejects with its reason, before or during the request', { timeout: 10_000 }, async () => {
  const before = AbortSignal.abort(new Error('stopped before'))
  await assert.rejects(loopbackFetch(url, { method: 'POST', body: '{}', signal: before }), /stopped before/)
  const controller = new AbortController()
  const pending = loopbackFetch(url, { method: 'POST', body: '{"method":"slow"}', signal: controller.signal })
  setTimeout(() => controller.abort(new Error('stopped during')), 20)
  await assert.rejects(pending, /stopped during/)
})

test("viem's http transport runs on it: a call's result, and its timeout", async () => {
  const client = createPublicClient({ transport: http(url, { retryCount: 0, fetchFn: loopbackFetch }) })
  assert.equal(await client.getChainId(), 8453)
  const slow = createPublicClient({ transport: http(url, { retryCount: 0, timeout: 50, fetchFn: loopbackFetch }) })
  await assert.rejects(slow.request({ method: 'slow' as never }), (e: Error) => e.name === 'TimeoutError')
})

test('loopback URLs are plain HTTP to this machine only', () => {
  for (const url of ['http://127.0.0.1:8545', 'http://127.1.2.3/', 'http://localhost:8545/rpc', 'http://[::1]:8545']) {
    assert.equal(isLoopbackHttpUrl(url), true, url)
  }
  for (const url of [
    'https://127.0.0.1:8545',
    'http://10.0.0.1:8545',
    'http://127.0.0.1.example.com',
    'https://mainnet.base.org',
    'not a url',
  ]) {
    assert.equal(isLoopbackHttpUrl(url), false, url)
  }
})
