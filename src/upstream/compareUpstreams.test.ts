import assert from 'node:assert/strict'
import { test } from 'vitest'
import {
  FEE_RECIPIENT,
  GAS_PRICE_WEI,
  LOCAL_POOL,
  TAIL,
  TAKER,
  USDC,
  WETH,
  gasInUsdc,
  useStandInWorld,
  wethToUsdcRequest,
} from '../../test/fixtures/upstreams/standInWorld.ts'
import { extractRawJsonMember } from './adapters/extractRawJsonMember.ts'
import { upstreamIds, upstreamRegistry } from './registry.ts'
import { constantProductMarket } from './standIns/constantProductMarket.ts'
import { priceWithFee } from './standIns/priceWithFee.ts'
import { transactionL1FeeWei } from './transactionL1FeeWei.ts'

// /quote/compare's logic against the six stand-ins (each speaking its API over HTTP, on its own
// constant-product market): all answer, some fail, all fail, one hangs past the deadline, one
// answers garbage, one rate-limits us, our own buckets and breakers, executable quotes.

const world = useStandInWorld()

const request = (extra: Record<string, unknown> = {}) => wethToUsdcRequest(10n ** 19n, extra)

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

test("some fail, each in its API's own format: a line per upstream says which and why; the rest is answered", async () => {
  world.standIns['1inch'].setBehaviour({ mode: 'server error' })
  world.standIns.odos.setBehaviour({ mode: 'no route' })
  world.standIns.velora.setBehaviour({ mode: 'garbage' })
  world.standIns.kyberswap.setBehaviour({ mode: 'wrong shape' })
  world.standIns['0x'].setBehaviour({ mode: 'wrong amount' })
  const answer = await world.service().compare(request(), world.local)
  assert.deepEqual(
    [answer.upstream!.best, ...answer.upstream!.alternates].map((q) => q.sourceId),
    ['openocean'],
  )
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
  assert.match(
    second.upstream!.errors.join('\n'),
    /^1inch: throttled: not called: our rate limit for its tier \(0.8 requests\/s, burst 1\)/m,
  )
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

test("with a taker: each upstream's transaction, its route given back to KyberSwap and Velora byte for byte", async () => {
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

test("on an OP-stack chain every upstream is netted of its transaction's L1 data fee, as /quote nets ours: its calldata's with a taker, an assumed 1,000 bytes for a price", async () => {
  // A busy L1 (30 gwei), Base's scalars: the fee is worth tens of USDC units here, enough to see.
  const L1 = { isFjord: true, l1BaseFee: 30n * 10n ** 9n, blobBaseFee: 10n ** 9n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n }
  const inUsdc = (wei: bigint) => (wei * 3000n * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n
  const priceOnlyL1 = transactionL1FeeWei({ parameters: L1, chainId: 8453, gasPriceWei: GAS_PRICE_WEI })
  assert.ok(inUsdc(priceOnlyL1) > 10n, `visible: ${inUsdc(priceOnlyL1)} USDC units`)
  const prices = await world.service({ l1Parameters: () => L1 }).compare(request(), world.local)
  const all = [prices.upstream!.best, ...prices.upstream!.alternates]
  assert.equal(all.length, 6)
  for (const q of all)
    assert.equal(BigInt(q.netOutput), BigInt(q.outputAmount) - inUsdc(BigInt(q.gasEstimate) * GAS_PRICE_WEI + priceOnlyL1), q.sourceId)
  const firm = await world.service({ l1Parameters: () => L1 }).compare(request({ taker: TAKER }), world.local)
  for (const q of [firm.upstream!.best, ...firm.upstream!.alternates]) {
    const tx = q.transaction!
    const l1 = transactionL1FeeWei({
      parameters: L1,
      chainId: 8453,
      gasPriceWei: GAS_PRICE_WEI,
      transaction: {
        to: tx.to as `0x${string}`,
        data: tx.data as `0x${string}`,
        value: BigInt(tx.value),
        gas: tx.gas === undefined ? undefined : BigInt(tx.gas),
      },
    })
    assert.ok(l1 > 0n)
    assert.equal(
      BigInt(q.netOutput),
      BigInt(q.outputAmount) - inUsdc(BigInt(q.gasEstimate) * GAS_PRICE_WEI + l1),
      `${q.sourceId}: its own calldata's fee`,
    )
  }
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
  assert.equal(
    Object.values(world.standIns).reduce(
      (n, s) => n + s.requests.filter((r) => r.query.buyToken === WETH || r.query.dst === WETH).length,
      0,
    ),
    0,
  )
})

test('an upstream that echoes our API key in its error text: the key never reaches the answer', async () => {
  const { UPSTREAM_KEY } = await import('../../test/fixtures/upstreams/standInWorld.ts')
  const { startUpstreamStandIn } = await import('./standIns/startUpstreamStandIn.ts')
  const echo = await startUpstreamStandIn({ id: '1inch', market: world.markets['1inch'] })
  // A stand-in answering as a misconfigured gateway might: its description quotes the header it got.
  echo.setBehaviour({ mode: 'server error' })
  const { createUpstreamService } = await import('./createUpstreamService.ts')
  const service = createUpstreamService({
    upstreams: [
      { id: '1inch', settings: { baseUrl: echo.url, apiKey: UPSTREAM_KEY, ratePerSec: 5, burst: 5, options: { version: 'v6.0' } } },
    ],
    chainId: 8453,
    weth: WETH,
    defaultBudgetMs: 1000,
    gasPriceWei: async () => GAS_PRICE_WEI,
    decimalsOf: async () => 18,
    quoteWeth: async () => 1n,
  })
  const { standInApis } = await import('./standIns/standInApis.ts')
  const serverError = standInApis['1inch'].serverError
  standInApis['1inch'].serverError = () => ({
    status: 500,
    body: { statusCode: 500, error: 'Internal Server Error', description: `upstream auth Bearer ${UPSTREAM_KEY} failed` },
  })
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

test('with feeBps > 0 every upstream is asked for the same fee, so every output is after it, like ours', async () => {
  const FEE = 30
  const amountIn = 10n ** 19n
  const answer = await world.service().compare(request({ feeBps: FEE }), world.local, FEE_RECIPIENT)
  assert.deepEqual(answer.upstream!.errors, [])
  const all = [answer.upstream!.best, ...answer.upstream!.alternates]
  assert.equal(all.length, 6)
  for (const q of all) {
    const id = q.sourceId as keyof typeof world.markets
    // Exactly what its API pays after the fee, taken where that API takes it (docs/upstreams.md).
    const takenFrom = upstreamRegistry[id].adapter.fee.takenFrom
    const after = (await priceWithFee({
      market: world.markets[id],
      trade: { tokenIn: WETH, tokenOut: USDC, amountIn },
      fee: { ppm: BigInt(FEE) * 100n, takenFrom },
    }))!
    assert.equal(q.outputAmount, after.amountOut.toString(), id)
    const gross = (await world.markets[id]({ tokenIn: WETH, tokenOut: USDC, amountIn }))!.amountOut
    if (takenFrom === 'tokenOut')
      assert.equal(BigInt(q.outputAmount), gross - (gross * BigInt(FEE)) / 10_000n, `${id}: the same arithmetic as our router`)
    else
      assert.ok(
        BigInt(q.outputAmount) < gross && BigInt(q.outputAmount) > gross - (gross * BigInt(FEE)) / 10_000n,
        `${id}: a fee on the input costs the taker a little less`,
      )
  }
  const localGross = (await constantProductMarket({ pools: [LOCAL_POOL] })({ tokenIn: WETH, tokenOut: USDC, amountIn }))!.amountOut
  assert.equal(answer.local!.routePlan.expectedAmountOut, (localGross - (localGross * BigInt(FEE)) / 10_000n).toString())
  // On the wire, in each API's own parameters and units, for the recipient the caller's key resolves to.
  const q = (id: keyof typeof world.standIns) => world.standIns[id].requests[0]
  assert.deepEqual([q('0x').query.swapFeeBps, q('0x').query.swapFeeRecipient, q('0x').query.swapFeeToken], ['30', FEE_RECIPIENT, USDC])
  assert.deepEqual([q('1inch').query.fee, q('1inch').path], ['0.3', '/swap/v6.0/8453/quote'])
  assert.deepEqual(
    [q('kyberswap').query.feeAmount, q('kyberswap').query.isInBps, q('kyberswap').query.chargeFeeBy, q('kyberswap').query.feeReceiver],
    ['30', 'true', 'currency_out', FEE_RECIPIENT],
  )
  assert.deepEqual([(q('odos').json as any).partnerFeePercent, (q('odos').json as any).feeRecipient], [0.003, FEE_RECIPIENT])
  assert.deepEqual([q('velora').query.partnerFeeBps, q('velora').query.partnerAddress], ['30', FEE_RECIPIENT])
  assert.deepEqual(
    [q('openocean').path, q('openocean').query.referrerFee, q('openocean').query.referrer],
    ['/v4/8453/swap', '0.3', FEE_RECIPIENT],
  )
  assert.deepEqual(world.bugs, [])
})

test('with feeBps > 0 and a taker: every transaction charges the fee (the build calls carry it too) and pays what was quoted', async () => {
  const answer = await world.service().compare(request({ feeBps: 30, taker: TAKER }), world.local, FEE_RECIPIENT)
  assert.deepEqual(answer.upstream!.errors, [])
  const all = [answer.upstream!.best, ...answer.upstream!.alternates]
  assert.equal(all.filter((x) => x.transaction).length, 6)
  assert.deepEqual(
    [world.standIns['1inch'].requests[0].query.fee, world.standIns['1inch'].requests[0].query.referrer],
    ['0.3', FEE_RECIPIENT],
  )
  const build = JSON.parse(world.standIns.velora.requests[1].text)
  assert.deepEqual([build.partnerFeeBps, build.partnerAddress], ['30', FEE_RECIPIENT])
  assert.deepEqual(
    [world.standIns.openocean.requests[0].query.account, world.standIns.openocean.requests[0].query.referrerFee],
    [TAKER, '0.3'],
  )
})

test("a fee above an API's cap is an unsupported line for that upstream (never asked, never a number at another fee)", async () => {
  const answer = await world.service().compare(request({ feeBps: 600 }), world.local, FEE_RECIPIENT)
  assert.deepEqual([answer.upstream!.best, ...answer.upstream!.alternates].map((x) => x.sourceId).sort(), ['0x', 'kyberswap', 'odos'])
  assert.deepEqual(answer.upstream!.errors, [
    '1inch: unsupported: feeBps 600 is above its maximum integrator fee of 300 bps (fee, in percent): not asked',
    'velora: unsupported: feeBps 600 is above its maximum integrator fee of 200 bps (partnerFeeBps): not asked',
    'openocean: unsupported: feeBps 600 is above its maximum integrator fee of 500 bps (referrerFee, in percent): not asked',
  ])
  for (const id of ['1inch', 'velora', 'openocean'] as const) assert.equal(world.standIns[id].requests.length, 0, id)
  const v2 = await world
    .service({ ids: ['odos'], settings: { options: { quoteVersion: 'v2' } } })
    .compare(request({ feeBps: 10 }), world.local, FEE_RECIPIENT)
  assert.equal(v2.upstream, null)
  assert.match(v2.upstreamError!, /odos: unsupported: Odos takes a per-request integrator fee only on its quote v3/)
  // feeBps 0 (or absent): no fee parameter reaches any API.
  await world.service().compare(request({ feeBps: 0 }), world.local)
  assert.equal(world.standIns['0x'].requests.at(-1)!.query.swapFeeBps, undefined)
})
