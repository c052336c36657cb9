import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'vitest'
import { spawnServer } from '../fixtures/spawnServer.ts'

// `src/server.ts` while the service is still loading: the port is bound before the service's
// modules are imported, so `/health` answers at once. The test holds the loading
// (`SERVER_TEST_HOLD_LOADING`: nothing past the bind is imported until that file exists, which it
// never does here), so it starts no chain and nothing but the bootstrap (RPC_URL names a closed
// port, so not even a broken hold would start the embedded chain). GATEWAY_CHAIN_CONFIG (never read
// while held) says the launch gateway will start, so its port is bound as early. The hand-over to
// the apps on the same ports is `server.test.ts`'s.

test(
  'while loading: /health 200, /ready 503 phase loading, the API 503 with Retry-After; the gateway port too; SIGTERM exits 0',
  { timeout: 30_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-loading-'))
    const server = spawnServer({
      HOST: '127.0.0.1',
      RPC_URL: 'http://127.0.0.1:1',
      GATEWAY_CHAIN_CONFIG: join(dir, 'gateway-chains.json'),
      SERVER_TEST_HOLD_LOADING: join(dir, 'never'),
    })
    const { child, output, exited } = server
    try {
      let url: string | undefined
      for (let i = 0; i < 250 && !url && child.exitCode === null; i++) {
        url = output().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1]
        if (!url) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      assert.ok(url, `no listening line; output:\n${output()}`)
      const health = await fetch(`${url}/health`)
      assert.equal(health.status, 200)
      assert.deepEqual(await health.json(), { ok: true })
      const ready = await fetch(`${url}/ready`)
      assert.equal(ready.status, 503)
      assert.equal(ready.headers.get('retry-after'), '1')
      assert.deepEqual(await ready.json(), { ready: false, notReady: ['starting'], phase: 'loading' })
      const quote = await fetch(`${url}/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      assert.equal(quote.status, 503)
      assert.equal(quote.headers.get('retry-after'), '1')
      assert.match(((await quote.json()) as { error: string }).error, /^starting: /)

      // The launch gateway's port, bound in the same first second (before: only once it had started).
      const gatewayUrl = output().match(/launch gateway loading, listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1]
      assert.ok(gatewayUrl, `no gateway listening line; output:\n${output()}`)
      const gatewayHealth = await fetch(`${gatewayUrl}/health`)
      assert.equal(gatewayHealth.status, 200)
      const healthBody = (await gatewayHealth.json()) as Record<string, unknown>
      assert.deepEqual(
        { ...healthBody, meta: undefined, not_ready_because: undefined },
        {
          status: 'starting',
          ready: false,
          phase: 'loading',
          chains: [],
          meta: undefined,
          not_ready_because: undefined,
        },
      )
      assert.deepEqual(healthBody.not_ready_because, ['starting: the gateway is loading'])
      const tokens = await fetch(`${gatewayUrl}/tokens`)
      assert.equal(tokens.status, 503)
      assert.equal(tokens.headers.get('retry-after'), '1')
      assert.match(tokens.headers.get('content-type') ?? '', /^application\/problem\+json/)
      const problem = (await tokens.json()) as { code: string; status: number; type: string; request_id: string }
      assert.equal(problem.code, 'temporarily_unavailable')
      assert.equal(problem.status, 503)
      assert.equal(problem.type, `${gatewayUrl}/problems#temporarily_unavailable`)
      assert.match(problem.request_id, /^req_/)
      child.kill('SIGTERM')
      assert.equal(await exited, 0, output())
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  },
)
