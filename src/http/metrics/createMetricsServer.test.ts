import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { Counter, Registry } from 'prom-client'
import { test } from 'vitest'
import { createMetricsServer } from './createMetricsServer.ts'

// In-process (no chain): the metrics port on HOST=localhost binds what Fastify's own listen binds,
// as the API's port does (listenOnHost), and serves GET /metrics only. Where localhost resolves to
// 127.0.0.1 alone (this machine) both bind one address: the dual-stack case, with an injected
// resolver, is listenWhileLoading.test.ts's.

test('HOST=localhost: the metrics port on every address Fastify binds; /metrics only; closed on close', async () => {
  const registry = new Registry()
  new Counter({ name: 'probe_total', help: 'a probe', registers: [registry] }).inc()
  const metrics = createMetricsServer({ registry })
  const fastify = Fastify()
  await fastify.listen({ host: 'localhost', port: 0 })
  try {
    const url = await metrics.listen({ host: 'localhost', port: 0 })
    const port = new URL(url).port
    for (const a of fastify.addresses()) {
      assert.ok(typeof a === 'object')
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address
      const res = await fetch(`http://${host}:${port}/metrics`)
      assert.equal(res.status, 200)
      assert.match(await res.text(), /probe_total 1/)
    }
    assert.equal((await fetch(url.replace('/metrics', '/quote'))).status, 404)
    await metrics.close()
    await assert.rejects(fetch(url))
  } finally {
    await fastify.close()
    await metrics.close()
  }
})
