import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { test } from 'vitest'
import { LOADING_READY_BODY, listenWhileLoading } from './listenWhileLoading.ts'

// In-process (no chain, no child process): the loading answers, then Fastify on the same port once
// handed over, and nothing reaches Fastify before it is ready (its handler crashes the process on a
// request that arrives while its plugins load).

test('the port answers while loading, Fastify only once ready and handed over', async () => {
  const loading = await listenWhileLoading({ host: '127.0.0.1', port: 0 })
  try {
    const get = async (path: string) => {
      const res = await fetch(`${loading.url}${path}`)
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown }
    }
    assert.deepEqual(await get('/health'), { status: 200, retryAfter: null, body: { ok: true } })
    assert.deepEqual(await get('/ready'), { status: 503, retryAfter: '1', body: LOADING_READY_BODY })
    const refused = await get('/quote?x=1')
    assert.equal(refused.status, 503)
    assert.equal(refused.retryAfter, '1')
    assert.match((refused.body as { error: string }).error, /^starting: /)

    let release!: () => void
    const fastify = Fastify({ serverFactory: loading.serverFactory })
    fastify.get('/ready', async () => ({ ready: true }))
    // A plugin still loading: requests meanwhile must still get the loading answers.
    void fastify.register(async () => new Promise<void>((resolve) => (release = resolve)))
    const ready = fastify.ready()
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(await get('/ready'), { status: 503, retryAfter: '1', body: LOADING_READY_BODY })
    release()
    await ready
    assert.deepEqual(await get('/ready'), { status: 503, retryAfter: '1', body: LOADING_READY_BODY })
    loading.handOver()
    assert.deepEqual(await get('/ready'), { status: 200, retryAfter: null, body: { ready: true } })
    assert.equal(fastify.server, loading.server)
    await fastify.close()
  } finally {
    await new Promise((resolve) => loading.server.close(resolve))
  }
})

test('HOST=localhost: every address localhost resolves to is bound, one port, each handed over', async () => {
  // Injected: this machine's resolver may name only 127.0.0.1; ::1 is what a dual-stack host adds.
  const both = async () => [{ address: '127.0.0.1' }, { address: '::1' }]
  const loading = await listenWhileLoading({ host: 'localhost', port: 0, lookupLocalhost: both })
  try {
    const port = new URL(loading.url).port
    const urls = [`http://127.0.0.1:${port}`, `http://[::1]:${port}`]
    assert.deepEqual(
      loading.servers.map((s) => s.address()).map((a) => (typeof a === 'object' && a ? `${a.address}:${a.port}` : a)),
      [`127.0.0.1:${port}`, `::1:${port}`],
    )
    for (const url of urls) assert.equal((await fetch(`${url}/health`)).status, 200)
    const fastify = Fastify({ serverFactory: loading.serverFactory })
    fastify.get('/ready', async () => ({ ready: true }))
    await fastify.ready()
    loading.handOver()
    for (const url of urls) assert.deepEqual(await (await fetch(`${url}/ready`)).json(), { ready: true })
    await fastify.close()
  } finally {
    await loading.close()
  }
  assert.ok(loading.servers.every((s) => !s.listening))
})

test("HOST=localhost binds the addresses Fastify's own listen binds on this machine", async () => {
  const fastify = Fastify()
  await fastify.listen({ host: 'localhost', port: 0 })
  const loading = await listenWhileLoading({ host: 'localhost', port: 0 })
  try {
    const addressesOf = (list: (string | { address: string } | null)[]) =>
      list.map((a) => (typeof a === 'object' && a ? a.address : String(a))).sort()
    assert.deepEqual(addressesOf(loading.servers.map((s) => s.address())), addressesOf(fastify.addresses()))
  } finally {
    await fastify.close()
    await loading.close()
  }
})
