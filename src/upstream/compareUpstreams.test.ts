import assert from 'node:assert/strict'
import { afterAll, beforeAll, beforeEach, test } from 'vitest'
import { GAS_PRICE_WEI, startStandInWorld, TAIL, TAKER, USDC, WETH, type StandInWorld } from '../../test/fixtures/upstreams/standInWorld.ts'
import { extractRawJsonMember } from './adapters/extractRawJsonMember.ts'
import { upstreamIds } from './registry.ts'

// /quote/compare's logic against the six stand-ins (each speaking its API over HTTP, on its own
// constant-product market): all answer, some fail, all fail, one hangs past the deadline, one
// answers garbage, one rate-limits us, our own buckets and breakers, executable quotes.

let world: StandInWorld
beforeAll(async () => {
  world = await startStandInWorld()
})
afterAll(async () => {
  await world.close()
})
beforeEach(() => {
  for (const s of Object.values(world.standIns)) {
    s.setBehaviour({})
    s.requests.length = 0
  }
  world.bugs.length = 0
})

const request = (extra: Record<string, unknown> = {}) => ({ chainId: 8453, tokenIn: WETH, tokenOut: USDC, amountIn: (10n ** 19n).toString(), slippageBps: 50, ...extra }) as never
const gasInUsdc = (units: bigint) => (units * GAS_PRICE_WEI * 3000n * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n

test('all upstreams answer: the best net of gas, the others ranked, each number exactly what its API said', async () => {
  const answer = await world.service().compare(request(), world.local)
  assert.equal(answer.upstreamError, null)
  assert.ok(answer.upstream)
  const all = [answer.upstream.best, ...answer.upstream.alternates]
  assert.deepEqual(all.map((q) => q.sourceId).sort(), [...upstreamIds].sort())
  for (const q of all) {
    const truth = (await world.markets[q.sourceId as keyof typeof world.markets]({ tokenIn: WETH, tokenOut: USDC, amountIn: 10n ** 19n }))!
    assert.equal(q.outputAmount, truth.amountOut.toString(), q.sourceId)
    // Odos reports its gas as a float: 0.4 more here, rounded up to the next unit.
    const gas = q.sourceId === 'odos' ? truth.gasUnits + 1n : truth.gasUnits
    assert.equal(q.gasEstimate, gas.toString(), q.sourceId)
    assert.equal(q.netOutput, (truth.amountOut - gasInUsdc(gas)).toString(), q.sourceId)
    assert.equal(q.transaction, undefined, 'no taker: price endpoints only')
  }
  for (let i = 1; i < all.length; i++) assert.ok(BigInt(all[i - 1].netOutput) >= BigInt(all[i].netOutput))
  assert.deepEqual(answer.upstream.errors, [])
  assert.equal(answer.netOfGas, true)
  assert.equal(answer.local?.quoteId, `q${world.local.issued.length}`)
  assert.equal(answer.localError, null)
  assert.deepEqual(world.bugs, [])
})

test('some fail, each in its API\'s own format: a line per upstream says which and why; the rest is answered', async () => {
  world.standIns['1inch'].setBehaviour({ mode: 'server error' })
  world.standIns.odos.setBehaviour({ mode: 'no route' })
  world.standIns.velora.setBehaviour({ mode: 'garbage' })
  world.standIns.kyberswap.setBehaviour({ mode: 'wrong shape' })
  world.standIns['0x'].setBehaviour({ mode: 'wrong amount' })
  const answer = await world.service().compare(request(), world.local)
  assert.deepEqual([answer.upstream!.best, ...answer.upstream!.alternates].map((q) => q.sourceId), ['openocean'])
  const errors = answer.upstream!.errors.join('\n')
  assert.match(errors, /^1inch: server error: HTTP 500/m)
  assert.match(errors, /^odos: no route: 2000 No viable path found/m)
  assert.match(errors, /^velora: invalid response: HTTP 200 with a body that is not JSON/m)
  assert.match(errors, /^kyberswap: invalid response: data: must have required properties routeSummary/m)
  assert.match(errors, /^0x: invalid response: sellAmount/m)
  assert.equal(answer.upstream!.errors.length, 5)
  assert.deepEqual(world.bugs, [])
})

test('all fail: upstream is null and upstreamError names every one; our own quote still comes', async () => {
  for (const id of upstreamIds) world.standIns[id].setBehaviour({ mode: 'no route' })
  const answer = await world.service().compare(request(), world.local)
  assert.equal(answer.upstream, null)
  assert.match(answer.upstreamError!, /^no upstream gave a quote: /)
  for (const id of upstreamIds) assert.ok(answer.upstreamError!.includes(`${id}: no route`), id)
  assert.ok(answer.local)
})

test('one hangs past the deadline: the answer comes at the deadline with what arrived, the hanging one a timeout', async () => {
  world.standIns.openocean.setBehaviour({ mode: 'hang' })
  world.standIns.velora.setBehaviour({ latencyMs: 5_000 })
  const answer = await world.service().compare(request({ timeBudgetMs: 400 }), world.local)
  assert.match(answer.upstream!.errors.join('\n'), /^openocean: timeout: no answer within \d+ ms/m)
  assert.match(answer.upstream!.errors.join('\n'), /^velora: timeout/m)
  assert.equal(answer.upstream!.alternates.length + 1, 4)
})

test('one rate-limits us (429 with Retry-After): its error says so, and it is left alone until then', async () => {
  world.standIns.kyberswap.setBehaviour({ mode: 'rate limited' })
  const service = world.service()
  const first = await service.compare(request(), world.local)
  assert.match(first.upstream!.errors.join('\n'), /^kyberswap: rate limited: HTTP 429/m)
  world.standIns.kyberswap.setBehaviour({})
  const asked = world.standIns.kyberswap.requests.length
  const second = await service.compare(request(), world.local)
  assert.match(second.upstream!.errors.join('\n'), /^kyberswap: circuit open: not called/m)
  assert.equal(world.standIns.kyberswap.requests.length, asked, 'not called while its Retry-After runs')
})

test('our token bucket keeps us inside its published tier: 1inch (1 request/s, paced at 0.8) is not called twice within a short budget', async () => {
  const service = world.service()
  await service.compare(request({ timeBudgetMs: 300 }), world.local)
  const second = await service.compare(request({ timeBudgetMs: 300 }), world.local)
  assert.match(second.upstream!.errors.join('\n'), /^1inch: throttled: not called: our rate limit for its tier \(0.8 requests\/s, burst 1\)/m)
  assert.equal(world.standIns['1inch'].requests.length, 1)
})

test('the breaker opens after five failures in a row: the sixth request is not sent', async () => {
  world.standIns.odos.setBehaviour({ mode: 'server error' })
  const service = world.service({ settings: { ratePerSec: 1000, burst: 1000 } })
  for (let i = 0; i < 5; i++) await service.compare(request(), world.local)
  assert.equal(world.standIns.odos.requests.length, 5)
  const sixth = await service.compare(request(), world.local)
  assert.match(sixth.upstream!.errors.join('\n'), /^odos: circuit open/m)
  assert.equal(world.standIns.odos.requests.length, 5)
})

test('with a taker: each upstream\'s transaction, its route given back to KyberSwap and Velora byte for byte', async () => {
  const answer = await world.service().compare(request({ taker: TAKER }), world.local)
  const all = [answer.upstream!.best, ...answer.upstream!.alternates]
  assert.equal(all.length, 6, answer.upstream!.errors.join('; '))
  for (const q of all) {
    assert.ok(q.transaction, q.sourceId)
    assert.equal(q.transaction.value, '0')
    assert.match(q.transaction.data, /^0x[0-9a-f]+$/)
    assert.ok(q.transaction.allowanceTarget, q.sourceId)
  }
  // The stand-ins refuse a modified route (they compare the bytes): both builds succeeded.
  const built = world.standIns.kyberswap.requests.find((r) => r.path.endsWith('/route/build'))!
  assert.match(extractRawJsonMember(built.text, ['routeSummary'])!, /"orderId":12345678901234567891/)
  assert.ok(world.standIns.velora.requests.some((r) => r.path === '/transactions/8453'))
})

test('gas not priceable in tokenOut (no WETH route on our market): net figures are gross, and the answer says so', async () => {
  const answer = await world.service({ quoteWeth: async () => Promise.reject(new Error('no route')) }).compare(request(), world.local)
  assert.equal(answer.netOfGas, false)
  for (const q of [answer.upstream!.best, ...answer.upstream!.alternates]) assert.equal(q.netOutput, q.outputAmount)
})

test('a pair nobody quotes, and the same asset on both sides', async () => {
  const tail = await world.service().compare(request({ tokenOut: TAIL }), world.local)
  assert.equal(tail.upstream, null)
  assert.equal(tail.local, null)
  assert.match(tail.localError!, /^no route: /)
  const same = await world.service().compare(request({ tokenOut: WETH }), world.local)
  assert.equal(same.upstream, null)
  assert.match(same.upstreamError!, /same asset/)
  assert.equal(Object.values(world.standIns).reduce((n, s) => n + s.requests.filter((r) => r.query.buyToken === WETH || r.query.dst === WETH).length, 0), 0)
})

test('an upstream that echoes our API key in its error text: the key never reaches the answer', async () => {
  const { UPSTREAM_KEY } = await import('../../test/fixtures/upstreams/standInWorld.ts')
  const { startUpstreamStandIn } = await import('./standIns/startUpstreamStandIn.ts')
  const echo = await startUpstreamStandIn({ id: '1inch', market: world.markets['1inch'] })
  // A stand-in answering as a misconfigured gateway might: its description quotes the header it got.
  echo.setBehaviour({ mode: 'server error' })
  const { createUpstreamService } = await import('./createUpstreamService.ts')
  const service = createUpstreamService({
    upstreams: [{ id: '1inch', settings: { baseUrl: echo.url, apiKey: UPSTREAM_KEY, ratePerSec: 5, burst: 5, options: { version: 'v6.0' } } }],
    chainId: 8453, weth: WETH, defaultBudgetMs: 1000, gasPriceWei: async () => GAS_PRICE_WEI, decimalsOf: async () => 18, quoteWeth: async () => 1n,
  })
  const { standInApis } = await import('./standIns/standInApis.ts')
  const serverError = standInApis['1inch'].serverError
  standInApis['1inch'].serverError = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', description: `upstream auth Bearer ${UPSTREAM_KEY} failed` } })
  try {
    const answer = await service.compare(request(), world.local)
    assert.match(answer.upstreamError!, /1inch: server error: HTTP 500: upstream auth Bearer \[redacted\] failed/)
    assert.ok(!JSON.stringify(answer).includes(UPSTREAM_KEY))
  } finally {
    standInApis['1inch'].serverError = serverError
    await service.close()
    await echo.close()
  }
})
