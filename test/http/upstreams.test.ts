import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createAdmissionControl } from '../../src/http/admission/createAdmissionControl.ts'
import type { UpstreamService } from '../../src/upstream/createUpstreamService.ts'
import { type BruteCurve, bruteForceSplit, curveValue } from '../fixtures/upstreams/bruteForceSplit.ts'
import { createGasCostPricer } from '../../src/upstream/createGasCostPricer.ts'
import { upstreamRegistry } from '../../src/upstream/registry.ts'
import { priceWithFee } from '../../src/upstream/standIns/priceWithFee.ts'
import { scaledMarket } from '../../src/upstream/standIns/scaledMarket.ts'
import { DEMO_PROFILES } from '../../src/upstream/standIns/startDemoUpstreams.ts'
import type { UpstreamId } from '../../src/upstream/UpstreamAdapter.ts'
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
  // Converged: the fee tests rebuild the service's answers from quotes of their own, exactly.
  stack = await startHttpTestStack({ converged: true })
  upstreams = await stack.demoUpstreams()
  app = await stack.makeApp({ upstreams })
  await app.listen({ host: '127.0.0.1', port: 0 })
  plain = await stack.makeApp({})
  const tokens = stack.service.devnet!.market.tokens
  body = {
    chainId: 8453,
    tokenIn: tokens.WETH.address,
    tokenOut: tokens.USDC.address,
    amountIn: (5n * 10n ** 18n).toString(),
    slippageBps: 50,
  }
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
  assert.equal(
    doc.paths['/quote/split'].post.responses['200'].content['application/json'].schema.$ref,
    '#/components/schemas/SplitResponse',
  )
  for (const name of ['UpstreamQuote', 'UpstreamTransaction', 'CompareResponse', 'SplitAllocation', 'SplitResponse'])
    assert.ok(doc.components.schemas[name], name)
  assert.match(
    doc.info.description,
    /simulated:0x, simulated:1inch, simulated:kyberswap, simulated:odos, simulated:velora, simulated:openocean/,
  )
})

test('POST /quote/compare: our quote (its quoteId works on /submit, for this key only) beside six simulated upstreams', async () => {
  const res = await callApp(app, 'socket', { url: '/quote/compare', key: KEY_A, body })
  assert.equal(res.status, 200, res.text)
  const answer = res.json
  assert.equal(answer.localError, null)
  assert.equal(answer.local.routePlan.amountIn, body.amountIn)
  assert.equal(answer.upstreamError, null)
  const sources = [answer.upstream.best, ...answer.upstream.alternates].map((q: { sourceId: string }) => q.sourceId)
  assert.deepEqual(sources.sort(), [
    'simulated:0x',
    'simulated:1inch',
    'simulated:kyberswap',
    'simulated:odos',
    'simulated:openocean',
    'simulated:velora',
  ])
  assert.equal(answer.netOfGas, true)
  for (const q of [answer.upstream.best, ...answer.upstream.alternates])
    assert.ok(BigInt(q.netOutput) < BigInt(q.outputAmount), 'gas is priced in USDC')
  const user = '0x000000000000000000000000000000000000bEEF'
  assert.equal((await callApp(app, 'inject', { url: '/submit', key: KEY_A, body: { quoteId: answer.local.quoteId, user } })).status, 200)
  assert.equal((await callApp(app, 'inject', { url: '/submit', key: KEY_B, body: { quoteId: answer.local.quoteId, user } })).status, 404)
})

test('POST /quote/split: the allocation covers the amount, beats the single best, and our piece carries a quoteId for /submit', async () => {
  const res = await callApp(app, 'inject', { url: '/quote/split', key: KEY_A, body: { ...body, amountIn: (50n * 10n ** 18n).toString() } })
  assert.equal(res.status, 200, res.text)
  const answer = res.json
  assert.equal(answer.strategy, 'split-aggregator')
  assert.equal(
    answer.allocations.reduce((s: bigint, a: { amountIn: string }) => s + BigInt(a.amountIn), 0n),
    50n * 10n ** 18n,
  )
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
  assert.ok(answer.allocations.length >= 2, `a 50 WETH trade is split: ${res.text.slice(0, 400)}`)
  const local = answer.allocations.find((a: { sourceId: string }) => a.sourceId === 'local')
  if (local) {
    assert.equal(local.hasExecutableQuote, true)
    const submit = await callApp(app, 'inject', {
      url: '/submit',
      key: KEY_A,
      body: { quoteId: local.quoteId, user: '0x000000000000000000000000000000000000bEEF' },
    })
    assert.equal(submit.status, 200, submit.text)
  }
})

test('ETH → WETH on compare and split: our exact wrap plan is the answer; the upstreams are not asked (the same asset)', async () => {
  const wrap = { ...body, tokenIn: NATIVE, tokenOut: body.tokenIn, amountIn: (3n * 10n ** 18n).toString() }
  const compare = await callApp(app, 'inject', { url: '/quote/compare', key: KEY_A, body: wrap })
  assert.equal(compare.status, 200, compare.text)
  assert.deepEqual([compare.json.local.routePlan.routes, compare.json.local.routePlan.nativeIn], [[], true])
  assert.equal(compare.json.local.routePlan.expectedAmountOut, wrap.amountIn)
  assert.equal(compare.json.upstream, null)
  assert.match(compare.json.upstreamError, /same asset/)
  const split = await callApp(app, 'inject', { url: '/quote/split', key: KEY_A, body: wrap })
  assert.equal(split.status, 200, split.text)
  assert.deepEqual(
    split.json.allocations.map((a: { sourceId: string; amountIn: string; outputAmount: string }) => [
      a.sourceId,
      a.amountIn,
      a.outputAmount,
    ]),
    [['local', wrap.amountIn, wrap.amountIn]],
    'all of it through our wrap, exactly (before gas)',
  )
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
  // On the fresh buckets too: on the first app, 0x's burst (5) may still be spent by the tests
  // before, and it answered "throttled" where this asserts its "no route" (seen in a CI run).
  const unknown = (
    await callApp(freshApp, 'inject', {
      url: '/quote/compare',
      key: KEY_A,
      body: { ...body, tokenOut: '0x00000000000000000000000000000000000000a1' },
    })
  ).json
  assert.equal(unknown.local, null)
  assert.match(unknown.localError, /^no route: /)
  assert.equal(unknown.upstream, null)
  assert.match(unknown.upstreamError, /simulated:0x: no route/)
})

test("both count against the caller's rate limit; validation and auth as everywhere", async () => {
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

test('POST /quote/compare with feeBps > 0: every source (ours and the six) is after the same fee', async () => {
  const FEE = 30
  // Fresh stand-ins for each call: the demo enforces each API's tier (1inch: one request a second).
  const without = (
    await callApp(await stack.makeApp({ upstreams: await stack.demoUpstreams() }), 'inject', { url: '/quote/compare', key: KEY_A, body })
  ).json
  const feeApp = await stack.makeApp({ upstreams: await stack.demoUpstreams() })
  const withFee = await callApp(feeApp, 'inject', { url: '/quote/compare', key: KEY_A, body: { ...body, feeBps: FEE } })
  assert.equal(withFee.status, 200, withFee.text)
  const answer = withFee.json
  assert.deepEqual(answer.upstream.errors, [])
  const gross = Object.fromEntries(
    [without.upstream.best, ...without.upstream.alternates].map((q: { sourceId: string; outputAmount: string }) => [
      q.sourceId,
      BigInt(q.outputAmount),
    ]),
  )
  const quotes = [answer.upstream.best, ...answer.upstream.alternates]
  assert.equal(quotes.length, 6)
  const cut = (x: bigint) => x - (x * BigInt(FEE)) / 10_000n
  for (const q of quotes) {
    const id = q.sourceId.replace('simulated:', '') as UpstreamId
    const out = BigInt(q.outputAmount)
    if (upstreamRegistry[id].adapter.fee.takenFrom === 'tokenOut')
      assert.equal(out, cut(gross[q.sourceId]), `${q.sourceId}: the fee off its output, as our router takes ours`)
    else
      assert.ok(
        out < gross[q.sourceId] && out >= cut(gross[q.sourceId]),
        `${q.sourceId}: the fee taken from its input: ${out} vs ${gross[q.sourceId]}`,
      )
  }
  assert.equal(answer.local.routePlan.feeBps, FEE)
  assert.equal(BigInt(answer.local.routePlan.expectedAmountOut), cut(BigInt(without.local.routePlan.expectedAmountOut)))
  // Our quote with the fee is issued like /quote's: /submit builds it (paying the same recipient).
  const submit = await callApp(feeApp, 'inject', {
    url: '/submit',
    key: KEY_A,
    body: { quoteId: answer.local.quoteId, user: '0x000000000000000000000000000000000000bEEF' },
  })
  assert.equal(submit.status, 200, submit.text)
  // A fee no key may ask for is still a 400, before any upstream is asked.
  const tooHigh = await callApp(app, 'inject', { url: '/quote/compare', key: KEY_A, body: { ...body, feeBps: 9_999 } })
  assert.equal(tooHigh.status, 400)
  assert.match(tooHigh.json.error, /^feeBps: /)
})

test('POST /quote/split with feeBps > 0: the brute-force optimum over the after-fee curves, never below the single best', async () => {
  const FEE = 30
  const amountIn = 50n * 10n ** 18n
  const tokens = stack.service.devnet!.market.tokens
  const res = await callApp(await stack.makeApp({ upstreams: await stack.demoUpstreams() }), 'inject', {
    url: '/quote/split',
    key: KEY_A,
    body: { ...body, amountIn: amountIn.toString(), feeBps: FEE },
  })
  assert.equal(res.status, 200, res.text)
  const answer = res.json
  assert.deepEqual(answer.errors, [])
  // The same curves rebuilt apart from the service: our quote service with the fee, each stand-in's
  // market (startDemoUpstreams) with the fee where its API takes it, gas priced as documented.
  const quoteService = stack.service.deps.quoteService
  const quoteOut = async (tokenIn: string, tokenOut: string, x: bigint, feeBps = 0) =>
    await quoteService.quote({ chainId: 8453, tokenIn, tokenOut, amountIn: x.toString(), slippageBps: 0, feeBps } as never)
  const gasPrice = await stack.service.publicClient.getGasPrice()
  const gas = await createGasCostPricer({
    weth: tokens.WETH.address,
    quoteWeth: async (out, wei) => BigInt((await quoteOut(tokens.WETH.address, out, wei)).expectedAmountOut),
  })(tokens.USDC.address, gasPrice)
  const curves: BruteCurve[] = []
  for (const s of answer.samples as { sourceId: string; asked: number; answered: number }[]) {
    assert.equal(s.answered, s.asked, s.sourceId)
    const points = []
    for (let j = 1; j <= s.asked; j++) {
      const x = (amountIn * BigInt(j)) / BigInt(s.asked)
      if (s.sourceId === 'local') {
        const plan = await quoteOut(tokens.WETH.address, tokens.USDC.address, x, FEE)
        points.push({ x, out: BigInt(plan.expectedAmountOut), gas: BigInt(plan.gasEstimate.gasUnits) })
        continue
      }
      const id = s.sourceId.replace('simulated:', '') as UpstreamId
      const profile = DEMO_PROFILES[id]
      const market = scaledMarket({
        quote: async (t) => BigInt((await quoteOut(t.tokenIn, t.tokenOut, t.amountIn)).expectedAmountOut),
        depth: { numerator: profile.depth[0], denominator: profile.depth[1] },
        feeBps: profile.feeBps,
        gasUnits: profile.gasUnits,
      })
      const priced = (await priceWithFee({
        market,
        trade: { tokenIn: tokens.WETH.address, tokenOut: tokens.USDC.address, amountIn: x },
        fee: { ppm: BigInt(FEE) * 100n, takenFrom: upstreamRegistry[id].adapter.fee.takenFrom },
      }))!
      points.push({ x, out: priced.amountOut, gas: id === 'odos' ? priced.gasUnits + 1n : priced.gasUnits })
    }
    curves.push({
      id: s.sourceId,
      points: [{ x: 0n, y: -gas.costOf(points[0].gas) }, ...points.map((p) => ({ x: p.x, y: p.out - gas.costOf(p.gas) }))],
    })
  }
  const brute = bruteForceSplit(curves, amountIn)!
  const chosen = (answer.allocations as { sourceId: string; amountIn: string }[]).reduce(
    (sum, a) => sum + curveValue(curves.find((c) => c.id === a.sourceId)!.points, BigInt(a.amountIn))!,
    0n,
  )
  assert.ok(
    chosen >= brute - brute / 100_000n - 1n && chosen <= brute + 1n,
    `allocation worth ${chosen} on the after-fee curves, brute force ${brute}`,
  )
  const singles = curves.map((c) => ({ id: c.id, net: c.points.at(-1)!.y })).sort((a, b) => (a.net > b.net ? -1 : 1))
  assert.deepEqual([answer.singleBestSource, answer.singleBestOutput], [singles[0].id, singles[0].net.toString()])
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
  assert.equal(
    answer.allocations.reduce((s: bigint, a: { amountIn: string }) => s + BigInt(a.amountIn), 0n),
    amountIn,
  )
})
