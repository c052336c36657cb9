import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { USDC, WETH, WORLD_POOLS } from '../../../test/fixtures/upstreams/standInWorld.ts'
import { constantProductMarket } from './constantProductMarket.ts'
import { startUpstreamStandIn, type UpstreamStandIn } from './startUpstreamStandIn.ts'

// The stand-ins refuse what the real APIs refuse, in their formats, and misbehave on demand. Plain
// fetch here (not our adapters), so these checks do not lean on the code the stand-ins test.

const market = constantProductMarket({ pools: [WORLD_POOLS['0x']] })
const KEY = 'stand-in-key-0123456789'
const stand: Partial<Record<string, UpstreamStandIn>> = {}
beforeAll(async () => {
  for (const id of ['0x', '1inch', 'kyberswap', 'odos', 'velora', 'openocean'] as const)
    stand[id] = await startUpstreamStandIn({ id, market, apiKey: KEY })
})
afterAll(async () => {
  for (const s of Object.values(stand)) await s!.close()
})

const get = async (id: string, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${stand[id]!.url}${path}`, { headers })
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => undefined)) as any }
}
const post = async (id: string, path: string, body: string) => {
  const res = await fetch(`${stand[id]!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any }
}
const zx = `/swap/allowance-holder/price?chainId=8453&sellToken=${WETH}&buyToken=${USDC}&sellAmount=1000000000000000000`

test('0x: the key and 0x-version are required; its validation errors and no-liquidity answer', async () => {
  assert.equal((await get('0x', zx)).status, 401)
  assert.deepEqual((await get('0x', zx, { '0x-api-key': KEY })).body.data.details, [{ field: '0x-version', reason: 'must be v2' }])
  const ok = await get('0x', zx, { '0x-api-key': KEY, '0x-version': 'v2' })
  assert.equal(ok.status, 200)
  assert.equal(ok.body.liquidityAvailable, true)
  assert.equal(ok.body.sellAmount, '1000000000000000000')
  const noTaker = await get('0x', zx.replace('/price', '/quote'), { '0x-api-key': KEY, '0x-version': 'v2' })
  assert.equal(noTaker.body.name, 'INPUT_INVALID')
  const other = await get('0x', zx.replace(USDC, '0x00000000000000000000000000000000000000a1'), { '0x-api-key': KEY, '0x-version': 'v2' })
  assert.deepEqual(Object.keys(other.body).sort(), ['liquidityAvailable', 'zid'])
})

test('1inch: Bearer key, required parameters, "insufficient liquidity"', async () => {
  const path = `/swap/v6.0/8453/quote?src=${WETH}&dst=${USDC}&amount=1000000000000000`
  assert.equal((await get('1inch', path)).status, 401)
  assert.equal((await get('1inch', path, { authorization: `Bearer ${KEY}` })).status, 200)
  const missing = await get('1inch', `/swap/v6.0/8453/swap?src=${WETH}&dst=${USDC}&amount=1000`, { authorization: `Bearer ${KEY}` })
  assert.equal(missing.body.description, 'from must be a valid address')
  stand['1inch']!.queue({ mode: 'no route' })
  assert.equal((await get('1inch', path, { authorization: `Bearer ${KEY}` })).body.description, 'insufficient liquidity')
})

test('1inch /swap simulates the taker unless disableEstimate=true: a taker that has not approved its router is refused; not simulated, tx.gas is 0 and includeGas gives the gas', async () => {
  const auth = { authorization: `Bearer ${KEY}` }
  const taker = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const swap = `/swap/v6.0/8453/swap?src=${WETH}&dst=${USDC}&amount=1000000000000000&from=${taker}&origin=${taker}&slippage=1`
  const simulated = await get('1inch', swap, auth)
  assert.equal(simulated.status, 400)
  assert.match(simulated.body.description, /^Not enough allowance\. Amount: 1000000000000000\. Allowance: 0\. Spender: 0x[0-9a-f]{40}$/i)
  assert.equal(simulated.body.error, 'Bad Request')
  assert.deepEqual(simulated.body.meta, [
    { type: 'amount', value: '1000000000000000' },
    { type: 'allowance', value: '0' },
  ])
  const unsimulated = await get('1inch', `${swap}&disableEstimate=true&includeGas=true`, auth)
  assert.equal(unsimulated.status, 200)
  assert.equal(unsimulated.body.tx.gas, 0)
  assert.ok(unsimulated.body.gas > 0)
})

test('KyberSwap: route/build refuses a routeSummary that is not byte for byte the one it sent (an integer past 2^53 inside)', async () => {
  const routes = await fetch(`${stand.kyberswap!.url}/base/api/v1/routes?tokenIn=${WETH}&tokenOut=${USDC}&amountIn=1000000000000000000`)
  const text = await routes.text()
  assert.match(text, /"orderId":12345678901234567891/)
  const summary = text.slice(text.indexOf('"routeSummary":') + 15, text.indexOf(',"routerAddress"'))
  const sender = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
  const reparsed = JSON.stringify(JSON.parse(summary))
  assert.notEqual(reparsed, summary, 'JSON.parse loses the digits')
  assert.equal(
    (await post('kyberswap', '/base/api/v1/route/build', `{"routeSummary":${reparsed},"sender":"${sender}","recipient":"${sender}"}`)).body
      .code,
    4002,
  )
  const built = await post(
    'kyberswap',
    '/base/api/v1/route/build',
    `{"routeSummary":${summary},"sender":"${sender}","recipient":"${sender}","slippageTolerance":50}`,
  )
  assert.equal(built.body.code, 0)
  assert.equal(built.body.data.routerAddress, '0x6131B5fae19EA4f9D964eAc0408E4408b66337b5')
  assert.equal(
    (
      await post(
        'kyberswap',
        '/base/api/v1/route/build',
        `{"routeSummary":${summary},"sender":"${sender}","recipient":"${sender}","slippageTolerance":2500}`,
      )
    ).body.code,
    4000,
  )
})

test('Odos: a pathId only with userAddr; assemble by that user, within its life', async () => {
  const body = (userAddr?: string) =>
    JSON.stringify({
      chainId: 8453,
      inputTokens: [{ tokenAddress: WETH, amount: '1000000000000000000' }],
      outputTokens: [{ tokenAddress: USDC, proportion: 1 }],
      ...(userAddr ? { userAddr } : {}),
    })
  assert.equal((await post('odos', '/sor/quote/v3', body())).body.pathId, null)
  const user = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
  const quote = await post('odos', '/sor/quote/v3', body(user))
  assert.equal(typeof quote.body.gasEstimate, 'number')
  assert.equal(
    (
      await post(
        'odos',
        '/sor/assemble',
        JSON.stringify({ userAddr: '0x000000000000000000000000000000000000bEEF', pathId: quote.body.pathId }),
      )
    ).body.errorCode,
    4101,
  )
  assert.equal((await post('odos', '/sor/assemble', JSON.stringify({ userAddr: user, pathId: 'nope' }))).body.errorCode, 4100)
  assert.equal((await post('odos', '/sor/assemble', JSON.stringify({ userAddr: user, pathId: quote.body.pathId }))).status, 200)
  assert.equal(
    (await post('odos', '/sor/quote/v3', JSON.stringify({ chainId: 1, inputTokens: [], outputTokens: [] }))).body.errorCode,
    4001,
  )
})

test('Velora: decimals required; /transactions refuses a modified priceRoute', async () => {
  assert.deepEqual((await get('velora', `/prices?srcToken=${WETH}&destToken=${USDC}&amount=1000&network=8453`)).body, {
    error: 'Invalid srcDecimals',
  })
  const prices = await fetch(
    `${stand.velora!.url}/prices?srcToken=${WETH}&srcDecimals=18&destToken=${USDC}&destDecimals=6&amount=1000000000000000000&network=8453`,
  )
  const route = ((await prices.json()) as any).priceRoute
  const user = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
  const tx = (r: unknown) =>
    post(
      'velora',
      '/transactions/8453',
      JSON.stringify({ priceRoute: r, srcToken: WETH, destToken: USDC, srcAmount: '1000000000000000000', slippage: 50, userAddress: user }),
    )
  assert.equal((await tx(route)).status, 200)
  assert.match((await tx({ ...route, destAmount: '1' })).body.error, /modified/)
})

test('OpenOcean: refusals inside an HTTP 200; data null when it cannot fill', async () => {
  const missing = await get('openocean', `/v4/8453/quote?inTokenAddress=${WETH}&outTokenAddress=${USDC}&amountDecimals=1000`)
  assert.deepEqual([missing.status, missing.body], [200, { code: 400, error: 'gasPriceDecimals is required' }])
  stand.openocean!.queue({ mode: 'no route' })
  assert.deepEqual(
    (await get('openocean', `/v4/8453/quote?inTokenAddress=${WETH}&outTokenAddress=${USDC}&amountDecimals=1000&gasPriceDecimals=1`)).body,
    { code: 200, data: null },
  )
})

test('misbehaviour on demand: its own rate limit (429 + Retry-After), a dropped connection, queued then standing behaviour', async () => {
  const s = stand.openocean!
  const path = `/v4/8453/quote?inTokenAddress=${WETH}&outTokenAddress=${USDC}&amountDecimals=1000&gasPriceDecimals=1`
  s.setBehaviour({ rateLimit: { ratePerSec: 0.001, burst: 2 } })
  assert.equal((await get('openocean', path)).status, 200)
  assert.equal((await get('openocean', path)).status, 200)
  const limited = await get('openocean', path)
  assert.equal(limited.status, 429)
  assert.ok(Number(limited.headers.get('retry-after')) >= 1)
  s.setBehaviour({})
  s.queue({ mode: 'reset' })
  await assert.rejects(fetch(`${s.url}${path}`))
  assert.equal((await get('openocean', path)).status, 200)
})

test('integrator fees: each stand-in charges them as its API documents, and refuses what its API refuses', async () => {
  const R = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
  const zxHeaders = { '0x-api-key': KEY, '0x-version': 'v2' }
  const gross = BigInt((await get('0x', zx, zxHeaders)).body.buyAmount)
  const charged = (await get('0x', `${zx}&swapFeeBps=30&swapFeeRecipient=${R}&swapFeeToken=${USDC}`, zxHeaders)).body
  assert.equal(BigInt(charged.buyAmount), gross - (gross * 30n) / 10_000n)
  assert.deepEqual(charged.fees.integratorFee, { amount: ((gross * 30n) / 10_000n).toString(), token: USDC.toLowerCase(), type: 'volume' })
  assert.deepEqual((await get('0x', `${zx}&swapFeeBps=1001&swapFeeRecipient=${R}`, zxHeaders)).body.data.details[0].field, 'swapFeeBps')
  assert.deepEqual((await get('0x', `${zx}&swapFeeBps=30`, zxHeaders)).body.data.details[0].field, 'swapFeeRecipient')
  assert.deepEqual(
    (await get('0x', `${zx}&swapFeeBps=30&swapFeeRecipient=${R}&swapFeeToken=${R}`, zxHeaders)).body.data.details[0].field,
    'swapFeeToken',
  )
  // 1inch: a percent of the src amount, the rest swapped; at most 3; /swap needs a referrer with it.
  const auth = { authorization: `Bearer ${KEY}` }
  const q1 = `/swap/v6.0/8453/quote?src=${WETH}&dst=${USDC}&amount=1000000000000000000`
  const in1 = BigInt((await get('1inch', `${q1}&fee=0.3`, auth)).body.dstAmount)
  assert.equal(in1, (await market({ tokenIn: WETH, tokenOut: USDC, amountIn: 10n ** 18n - 3n * 10n ** 15n }))!.amountOut)
  assert.equal((await get('1inch', `${q1}&fee=3.01`, auth)).status, 400)
  assert.match((await get('1inch', `${q1.replace('/quote', '/swap')}&from=${R}&slippage=1&fee=0.3`, auth)).body.description, /referrer/)
  // KyberSwap: extraFee echoed; absolute fees not simulated.
  const kq = `/base/api/v1/routes?tokenIn=${WETH}&tokenOut=${USDC}&amountIn=1000000000000000000`
  const kyber = (await get('kyberswap', `${kq}&feeAmount=30&isInBps=true&chargeFeeBy=currency_out&feeReceiver=${R}`)).body.data.routeSummary
  assert.deepEqual(kyber.extraFee, { feeAmount: '30', chargeFeeBy: 'currency_out', isInBps: true, feeReceiver: R })
  assert.equal(BigInt(kyber.amountOut), gross - (gross * 30n) / 10_000n)
  assert.equal((await get('kyberswap', `${kq}&feeAmount=30&chargeFeeBy=currency_out&feeReceiver=${R}`)).body.code, 4001)
  // Odos v3: a checksummed feeRecipient; the fraction echoed.
  const odosBody = (extra: object) =>
    JSON.stringify({
      chainId: 8453,
      inputTokens: [{ tokenAddress: WETH, amount: '1000000000000000000' }],
      outputTokens: [{ tokenAddress: USDC, proportion: 1 }],
      ...extra,
    })
  const odos = (await post('odos', '/sor/quote/v3', odosBody({ partnerFeePercent: 0.003, feeRecipient: R }))).body
  assert.deepEqual([BigInt(odos.outAmounts[0]), odos.partnerFeePercent], [gross - (gross * 30n) / 10_000n, 0.003])
  assert.equal((await post('odos', '/sor/quote/v3', odosBody({ partnerFeePercent: 0.003, feeRecipient: R.toLowerCase() }))).status, 400)
  // Velora: at most 200 bps; OpenOcean: /swap only, 0.01..5 % of the in-token.
  const vq = `/prices?srcToken=${WETH}&srcDecimals=18&destToken=${USDC}&destDecimals=6&amount=1000000000000000000&side=SELL&network=8453`
  assert.equal(
    BigInt((await get('velora', `${vq}&partnerFeeBps=30&partnerAddress=${R}`)).body.priceRoute.destAmount),
    gross - (gross * 30n) / 10_000n,
  )
  assert.equal((await get('velora', `${vq}&partnerFeeBps=201&partnerAddress=${R}`)).status, 400)
  const oq = `/v4/8453/swap?inTokenAddress=${WETH}&outTokenAddress=${USDC}&amountDecimals=1000000000000000000&gasPriceDecimals=5000000`
  assert.equal(BigInt((await get('openocean', `${oq}&referrer=${R}&referrerFee=0.3`)).body.data.outAmount), in1)
  assert.equal((await get('openocean', `${oq}&referrer=${R}&referrerFee=5.01`)).body.code, 400)
  assert.equal(
    BigInt((await get('openocean', `${oq.replace('/swap', '/quote')}&referrer=${R}&referrerFee=0.3`)).body.data.outAmount),
    gross,
    '/quote takes no fee',
  )
})
