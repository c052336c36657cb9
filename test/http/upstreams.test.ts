import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createAdmissionControl } from '../../src/http/admission/createAdmissionControl.ts'
import type { UpstreamService } from '../../src/upstream/createUpstreamService.ts'
import { callApp } from './callApp.ts'
import { type HttpTestStack, KEY_A, KEY_B, NATIVE, startHttpTestStack } from './startHttpTestStack.ts'

// /quote/compare and /quote/split over HTTP on the real service (embedded seeded chain, native
// solver, real quote service and issuer), with the six upstreams as the demo's stand-ins (each
// speaking its API over loopback, priced from the seeded market at its own depth), answering at once.

let stack: HttpTestStack
let upstreams: UpstreamService
let app: FastifyInstance
let plain: FastifyInstance
let body: Record<string, unknown>

beforeAll(async () => {
  stack = await startHttpTestStack()
  upstreams = await stack.demoUpstreams()
  app = await stack.makeApp({ upstreams })
  await app.listen({ host: '127.0.0.1', port: 0 })
  plain = await stack.makeApp({})
  const tokens = stack.service.devnet!.market.tokens
  body = { chainId: 8453, tokenIn: tokens.WETH.address, tokenOut: tokens.USDC.address, amountIn: (5n * 10n ** 18n).toString(), slippageBps: 50 }
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

test('without an upstream the two paths do not exist (404 after the key check) and the document does not list them', async () => {
  assert.equal((await callApp(plain, 'inject', { url: '/quote/compare', key: KEY_A, body })).status, 404)
  assert.equal((await callApp(plain, 'inject', { url: '/quote/split', key: KEY_A, body })).status, 404)
  assert.equal((await callApp(plain, 'inject', { url: '/quote/split', body })).status, 401)
  const doc = (await callApp(plain, 'inject', { method: 'GET', url: '/openapi.json' })).json
  assert.equal(doc.paths['/quote/compare'], undefined)
  assert.equal(doc.components.schemas.CompareResponse, undefined)
  assert.match(doc.info.description, /not served: no upstream adapter is configured/)
})

test('with upstreams the document lists both operations, their components, and the sources', async () => {
  const doc = (await callApp(app, 'inject', { method: 'GET', url: '/openapi.json' })).json
  assert.equal(doc.paths['/quote/compare'].post.operationId, 'compare')
  assert.equal(doc.paths['/quote/split'].post.operationId, 'split')
  assert.equal(doc.paths['/quote/compare'].post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/QuoteRequest')
  assert.equal(doc.paths['/quote/split'].post.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/SplitResponse')
  for (const name of ['UpstreamQuote', 'UpstreamTransaction', 'CompareResponse', 'SplitAllocation', 'SplitResponse']) assert.ok(doc.components.schemas[name], name)
  assert.match(doc.info.description, /simulated:0x, simulated:1inch, simulated:kyberswap, simulated:odos, simulated:velora, simulated:openocean/)
})

test('POST /quote/compare: our quote (its quoteId works on /submit, for this key only) beside six simulated upstreams', async () => {
  const res = await callApp(app, 'socket', { url: '/quote/compare', key: KEY_A, body })
  assert.equal(res.status, 200, res.text)
  const answer = res.json
  assert.equal(answer.localError, null)
  assert.equal(answer.local.routePlan.amountIn, body.amountIn)
  assert.equal(answer.upstreamError, null)
  const sources = [answer.upstream.best, ...answer.upstream.alternates].map((q: { sourceId: string }) => q.sourceId)
  assert.deepEqual(sources.sort(), ['simulated:0x', 'simulated:1inch', 'simulated:kyberswap', 'simulated:odos', 'simulated:openocean', 'simulated:velora'])
  assert.equal(answer.netOfGas, true)
  for (const q of [answer.upstream.best, ...answer.upstream.alternates]) assert.ok(BigInt(q.netOutput) < BigInt(q.outputAmount), 'gas is priced in USDC')
  const user = '0x000000000000000000000000000000000000bEEF'
  assert.equal((await callApp(app, 'inject', { url: '/submit', key: KEY_A, body: { quoteId: answer.local.quoteId, user } })).status, 200)
  assert.equal((await callApp(app, 'inject', { url: '/submit', key: KEY_B, body: { quoteId: answer.local.quoteId, user } })).status, 404)
})

test('POST /quote/split: the allocation covers the amount, beats the single best, and our piece carries a quoteId for /submit', async () => {
  const res = await callApp(app, 'inject', { url: '/quote/split', key: KEY_A, body: { ...body, amountIn: (50n * 10n ** 18n).toString() } })
  assert.equal(res.status, 200, res.text)
  const answer = res.json
  assert.equal(answer.strategy, 'split-aggregator')
  assert.equal(answer.allocations.reduce((s: bigint, a: { amountIn: string }) => s + BigInt(a.amountIn), 0n), 50n * 10n ** 18n)
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
  assert.ok(answer.allocations.length >= 2, `a 50 WETH trade is split: ${res.text.slice(0, 400)}`)
  const local = answer.allocations.find((a: { sourceId: string }) => a.sourceId === 'local')
  if (local) {
    assert.equal(local.hasExecutableQuote, true)
    const submit = await callApp(app, 'inject', { url: '/submit', key: KEY_A, body: { quoteId: local.quoteId, user: '0x000000000000000000000000000000000000bEEF' } })
    assert.equal(submit.status, 200, submit.text)
  }
})

test('the native asset, a taker (executable quotes), an unknown token (local null, upstreams say no route)', async () => {
  const taker = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
  // Fresh buckets: the tests before used up the upstreams' bursts.
  const fresh = await stack.demoUpstreams()
  const freshApp = await stack.makeApp({ upstreams: fresh })
  const native = (await callApp(freshApp, 'inject', { url: '/quote/compare', key: KEY_A, body: { ...body, tokenIn: NATIVE, taker } })).json
  assert.equal(native.upstreamError, null)
  assert.deepEqual(native.upstream.errors, [])
  for (const q of [native.upstream.best, ...native.upstream.alternates]) {
    assert.equal(q.transaction.value, body.amountIn, `${q.sourceId}: msg.value is the input`)
    assert.equal(q.transaction.allowanceTarget, undefined, 'nothing to approve for ETH')
  }
  const unknown = (await callApp(app, 'inject', { url: '/quote/compare', key: KEY_A, body: { ...body, tokenOut: '0x00000000000000000000000000000000000000a1' } })).json
  assert.equal(unknown.local, null)
  assert.match(unknown.localError, /^no route: /)
  assert.equal(unknown.upstream, null)
  assert.match(unknown.upstreamError, /simulated:0x: no route/)
})

test('both count against the caller\'s rate limit; validation and auth as everywhere', async () => {
  const limited = await stack.makeApp({ upstreams, rateLimitPerMinute: 2 })
  assert.equal((await callApp(limited, 'inject', { url: '/quote/compare', key: KEY_A, body })).status, 200)
  assert.equal((await callApp(limited, 'inject', { url: '/quote/split', key: KEY_A, body })).status, 200)
  const third = await callApp(limited, 'inject', { url: '/quote/compare', key: KEY_A, body })
  assert.equal(third.status, 429)
  assert.deepEqual(third.json, { error: 'rate limit exceeded', limit: 2, windowSec: 60 })
  assert.equal((await callApp(app, 'inject', { url: '/quote/compare', body })).status, 401)
  const bad = await callApp(app, 'inject', { url: '/quote/split', key: KEY_A, body: { ...body, slippageBps: 10_001 } })
  assert.deepEqual([bad.status, bad.json], [400, { error: 'slippageBps: must be <= 10000' }])
  assert.equal((await callApp(app, 'inject', { url: '/quote/compare', key: KEY_A, body: { ...body, extra: 1 } })).status, 400)
})

test('compare and split run our solver, so admission control refuses them like /quote: 503 with Retry-After, documented', async () => {
  const full = createAdmissionControl({ maxConcurrent: 0, maxConcurrentPerKey: 0, maxEventLoopDelayMs: 0 })
  const shedding = await stack.makeApp({ upstreams, admission: full })
  try {
    for (const url of ['/quote', '/quote/compare', '/quote/split']) {
      const res = await callApp(shedding, 'inject', { url, key: KEY_A, body })
      assert.equal(res.status, 503, `${url}: ${res.text}`)
      assert.equal(res.headers['retry-after'], '1')
      assert.match(res.json.error, /^overloaded: /)
    }
    const doc = (await callApp(shedding, 'inject', { method: 'GET', url: '/openapi.json' })).json
    for (const path of ['/quote/compare', '/quote/split']) assert.ok(doc.paths[path].post.responses['503'], path)
  } finally {
    full.close()
  }
})
