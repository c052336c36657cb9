import assert from 'node:assert/strict'
import { test } from 'vitest'
import { spawnServer } from '../fixtures/spawnServer.ts'

// `npm start` with UPSTREAMS_DEMO=1, as a user runs it: the banner names the simulated upstreams,
// /quote/compare and /quote/split answer over HTTP with every upstream labelled `simulated:`, at
// the providers' published latencies, and SIGTERM closes everything (stand-ins included).

test('UPSTREAMS_DEMO=1: simulated upstreams, labelled so in every answer', { timeout: 240_000 }, async () => {
  const server = spawnServer({ LOG_LEVEL: 'warn', UPSTREAMS: '', UPSTREAMS_DEMO: '1' })
  const { child, exited } = server
  try {
    for (let i = 0; i < 2000 && !/try a quote[^\n]*\n[^\n]*\n/.test(server.output()); i++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    assert.match(
      server.output(),
      /upstream aggregators for \/quote\/compare and \/quote\/split: simulated:0x, simulated:1inch, simulated:kyberswap, simulated:odos, simulated:velora, simulated:openocean \(UPSTREAMS_DEMO=1: local stand-ins, simulated prices\)/,
    )
    const url = server.output().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)![1]
    const key = server.output().match(/development API key: (dev_[0-9a-f]{32})/)![1]
    const body = server.output().match(/-d '(\{[^']+\})'/)![1]
    const post = async (path: string) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body })
      return { status: res.status, json: (await res.json()) as any }
    }
    const compare = await post('/quote/compare')
    assert.equal(compare.status, 200)
    assert.ok(compare.json.local.quoteId)
    const quotes = [compare.json.upstream.best, ...compare.json.upstream.alternates]
    assert.ok(quotes.length >= 4, JSON.stringify(compare.json.upstream.errors))
    for (const q of quotes) assert.match(q.sourceId, /^simulated:/)
    const split = await post('/quote/split')
    assert.equal(split.status, 200)
    for (const a of split.json.allocations) assert.match(a.sourceId, /^(local|simulated:[a-z0-9]+)$/)
    assert.ok(BigInt(split.json.totalOutput) >= BigInt(split.json.singleBestOutput))
    child.kill('SIGTERM')
    assert.equal(await exited, 0, server.output())
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
})
