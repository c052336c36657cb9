import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, test } from 'vitest'
import { UpstreamError } from '../UpstreamError.ts'
import { createUpstreamHttpClient } from './createUpstreamHttpClient.ts'

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string; socket: number }
let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void
const seen: Seen[] = []
let sockets = 0
const server = createServer(async (req, res) => {
  let body = ''
  for await (const chunk of req) body += chunk
  seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, socket: (req.socket as unknown as { id: number }).id })
  handler(req, res, body)
})
server.on('connection', (socket) => {
  ;(socket as unknown as { id: number }).id = ++sockets
})
let base: string

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const reset = (h: typeof handler) => {
  handler = h
  seen.length = 0
}
const later = () => Date.now() + 10_000

test('the request as written: prefix, query (undefined left out), headers, JSON or raw body; the answer parsed', async () => {
  reset((_req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-a': 'b' }).end('{"ok":true}'))
  const client = createUpstreamHttpClient({ baseUrl: `${base}/swap/`, headers: { authorization: 'Bearer k' } })
  const res = await client.request({
    method: 'GET',
    path: '/v6.0/8453/quote',
    query: { src: '0xEe', amount: '10', gone: undefined },
    deadline: later(),
  })
  assert.equal(res.status, 201)
  assert.deepEqual(res.json, { ok: true })
  assert.equal(res.headers['x-a'], 'b')
  assert.equal(seen[0].url, '/swap/v6.0/8453/quote?src=0xEe&amount=10')
  assert.equal(seen[0].headers.authorization, 'Bearer k')
  assert.equal(seen[0].headers.accept, 'application/json')
  await client.request({ method: 'POST', path: '/a', body: { x: 1 }, deadline: later() })
  assert.equal(seen[1].body, '{"x":1}')
  assert.equal(seen[1].headers['content-type'], 'application/json')
  await client.request({ method: 'POST', path: '/a', rawBody: '{"n":12345678901234567891}', deadline: later() })
  assert.equal(seen[2].body, '{"n":12345678901234567891}')
  reset((_req, res) => res.writeHead(200).end('not json'))
  assert.equal((await client.request({ method: 'GET', path: '/', deadline: later() })).json, undefined)
  await client.close()
})

test('keep-alive: calls one after another share a connection; pipelining off: concurrent calls get a connection each', async () => {
  reset((_req, res) => setTimeout(() => res.writeHead(200).end('{}'), 30))
  const client = createUpstreamHttpClient({ baseUrl: base })
  for (let i = 0; i < 6; i++) await client.request({ method: 'GET', path: '/seq', deadline: later() })
  // The pool may open a second connection while the first is still being released; without
  // keep-alive each call would open its own.
  assert.ok(new Set(seen.map((s) => s.socket)).size <= 2, 'connections are reused')
  seen.length = 0
  await Promise.all([1, 2, 3].map(() => client.request({ method: 'GET', path: '/par', deadline: later() })))
  assert.equal(new Set(seen.map((s) => s.socket)).size, 3, 'no request waits behind another on one connection')
  await client.close()
})

test('the deadline aborts a call that has not answered: a timeout, not a hang', async () => {
  reset(() => {}) // never answers
  const client = createUpstreamHttpClient({ baseUrl: base })
  await assert.rejects(
    client.request({ method: 'GET', path: '/hang', deadline: Date.now() + 150 }),
    (e) => e instanceof UpstreamError && e.kind === 'timeout',
  )
  await assert.rejects(
    client.request({ method: 'GET', path: '/late', deadline: Date.now() - 1 }),
    (e) => e instanceof UpstreamError && e.kind === 'timeout' && /not called/.test(e.message),
  )
  await client.close()
})

test("an answer inside the deadline is never cut short: undici's coarse timers are not the deadline", async () => {
  // undici's headersTimeout runs on ≈0.5 s ticks and fired up to a tick early when it was set to
  // the deadline: calls given 990 ms that answer after 600 ms failed depending on where in a tick
  // they started. Ten calls started 50 ms apart cover every phase of that tick.
  reset((_req, res) => setTimeout(() => res.writeHead(200).end('{"ok":true}'), 600))
  const client = createUpstreamHttpClient({ baseUrl: base, connections: 10 })
  const calls = Array.from({ length: 10 }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, 50 * i))
    return client.request({ method: 'GET', path: `/${i}`, deadline: Date.now() + 990 })
  })
  const outcomes = await Promise.allSettled(calls)
  assert.deepEqual(
    outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : (o.reason as Error).message)),
    Array(10).fill(200),
  )
  await client.close()
})

test('a body over the cap is refused as an invalid response', async () => {
  reset((_req, res) => res.writeHead(200).end('x'.repeat(300_000)))
  const client = createUpstreamHttpClient({ baseUrl: base, maxBodyBytes: 100_000 })
  await assert.rejects(
    client.request({ method: 'GET', path: '/big', deadline: later() }),
    (e) => e instanceof UpstreamError && e.kind === 'invalid response' && /100000 bytes/.test(e.message),
  )
  await client.close()
})

test('one retry, only where safe: a GET after a 503 (if the bucket allows), never a POST, never twice', async () => {
  let calls = 0
  reset((_req, res) => (calls++ === 0 ? res.writeHead(503).end('{}') : res.writeHead(200).end('{"ok":1}')))
  let allowed = 0
  const client = createUpstreamHttpClient({ baseUrl: base, mayRetry: () => ++allowed > 0 })
  assert.equal((await client.request({ method: 'GET', path: '/g', deadline: later() })).status, 200)
  assert.equal(seen.length, 2)
  assert.equal(allowed, 1)
  calls = 0
  seen.length = 0
  assert.equal((await client.request({ method: 'POST', path: '/p', body: {}, deadline: later() })).status, 503)
  assert.equal(seen.length, 1, 'a POST is not retried after the server saw it')
  reset((_req, res) => res.writeHead(503).end('{}'))
  assert.equal((await client.request({ method: 'GET', path: '/g', deadline: later() })).status, 503)
  assert.equal(seen.length, 2, 'at most one retry')
  const noTokens = createUpstreamHttpClient({ baseUrl: base, mayRetry: () => false })
  seen.length = 0
  assert.equal((await noTokens.request({ method: 'GET', path: '/g', deadline: later() })).status, 503)
  assert.equal(seen.length, 1, 'no token left: no retry')
  await client.close()
  await noTokens.close()
})

test('a refused connection is a network error, retried once (the request never reached a server)', async () => {
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const port = (closed.address() as AddressInfo).port
  await new Promise<void>((resolve) => closed.close(() => resolve()))
  let asked = 0
  const client = createUpstreamHttpClient({ baseUrl: `http://127.0.0.1:${port}`, mayRetry: () => ++asked > 0 })
  await assert.rejects(
    client.request({ method: 'POST', path: '/x', body: {}, deadline: later() }),
    (e) => e instanceof UpstreamError && e.kind === 'network' && /ECONNREFUSED/.test(e.message),
  )
  assert.equal(asked, 1)
  await client.close()
})
