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
