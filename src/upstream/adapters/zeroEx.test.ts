import assert from 'node:assert/strict'
import { test } from 'vitest'
import { expectUpstreamError, fixture, recordedRequester, testSettings } from '../../../test/fixtures/upstreams/recordedRequester.ts'
import { answeredBy } from '../../../test/fixtures/upstreams/answeredBy.ts'
import { upstreamTrade } from '../../../test/fixtures/upstreams/upstreamTrade.ts'
import { zeroEx } from './zeroEx.ts'

// Encoding against 0x's documented request (docs, "Upgrading to Swap API v2", AllowanceHolder /quote:
// 100000 wei of ETH for DAI on mainnet, taker 0xd8dA…6045, slippageBps 100); decoding against the
// examples of its OpenAPI document (test/fixtures/upstreams/0x, mainnet USDC → USDT).

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7'
const DAI = '0x6B175474E89094C44Da98b954EedeAC495271d0F'
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const TAKER = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const trade = upstreamTrade({
  chainId: 1,
  tokenIn: USDC,
  tokenOut: USDT,
  amountIn: 100_000_000n,
  slippageBps: 100,
  decimals: { tokenIn: 6, tokenOut: 6 },
})
const settings = testSettings('0x')
const answered = answeredBy(zeroEx, settings)

test('request: the documented /quote query and both required headers', async () => {
  const { call, requests } = recordedRequester({ body: fixture('0x/allowance-holder-quote.json') })
  await zeroEx.executable({ ...trade({ tokenIn: ETH, tokenOut: DAI, amountIn: 100_000n }), taker: TAKER }, call, settings).catch(() => {})
  assert.equal(requests[0].method, 'GET')
  assert.equal(requests[0].path, '/swap/allowance-holder/quote')
  assert.deepEqual(requests[0].query, {
    chainId: '1',
    sellToken: ETH,
    buyToken: DAI,
    sellAmount: '100000',
    taker: TAKER,
    gasPrice: undefined,
    slippageBps: '100',
  })
  assert.deepEqual(zeroEx.headers(settings), { '0x-api-key': 'test-upstream-key-0123456789', '0x-version': 'v2' })
  const permit2 = recordedRequester({ body: {} })
  await zeroEx
    .price(trade({ gasPriceWei: 7_062_490_000n }), permit2.call, testSettings('0x', { options: { flow: 'permit2' } }))
    .catch(() => {})
  assert.equal(permit2.requests[0].path, '/swap/permit2/price')
  assert.equal(permit2.requests[0].query?.gasPrice, '7062490000')
  assert.equal(permit2.requests[0].query?.taker, undefined, 'no taker on an indicative price')
})

test('the documented /price answers decode to buyAmount and gas', async () => {
  for (const file of ['0x/allowance-holder-price.json', '0x/permit2-price.json']) {
    const { call } = recordedRequester({ body: fixture(file) })
    assert.deepEqual(await zeroEx.price(trade(), call, settings), { outputAmount: 100_032_748n, gasUnits: 288_095n })
  }
})

test('the documented /quote answers decode to the transaction; the approval target is issues.allowance.spender, not transaction.to', async () => {
  const quote = fixture('0x/allowance-holder-quote.json')
  const { call } = recordedRequester({ body: quote })
  const answer = await zeroEx.executable({ ...trade(), taker: TAKER }, call, settings)
  assert.equal(answer.outputAmount, 100_037_537n)
  assert.equal(answer.gasUnits, 288_079n)
  assert.equal(answer.transaction?.to, quote.transaction.to)
  assert.equal(answer.transaction?.data, quote.transaction.data)
  assert.equal(answer.transaction?.value, 0n)
  assert.equal(answer.transaction?.allowanceTarget, '0x0000000000001ff3684f28c67538d4d072c22734')
  const permit2 = recordedRequester({ body: fixture('0x/permit2-quote.json') })
  const signed = await zeroEx.executable({ ...trade(), taker: TAKER }, permit2.call, testSettings('0x', { options: { flow: 'permit2' } }))
  assert.equal(signed.transaction?.allowanceTarget, '0x000000000022d473030f116ddee9f6b43ac78ba3')
  assert.equal((signed.transaction?.permit2 as { type: string }).type, 'Permit2')
})

test('its own refusals: liquidityAvailable false and TOKEN_NOT_SUPPORTED are "no route"; INPUT_INVALID is rejected; 429 carries Retry-After', async () => {
  await expectUpstreamError(answered.price(trade(), { body: { liquidityAvailable: false, zid: '0x111111111111111111111111' } }), 'no route')
  await expectUpstreamError(
    answered.price(trade(), {
      status: 400,
      body: { name: 'TOKEN_NOT_SUPPORTED', message: 'Token is not supported', data: { zid: '0x1' } },
    }),
    'no route',
    /TOKEN_NOT_SUPPORTED/,
  )
  await expectUpstreamError(
    answered.price(trade(), {
      status: 400,
      body: {
        name: 'INPUT_INVALID',
        message: 'Validation Failed',
        data: { zid: '0x1', details: [{ field: 'sellAmount', reason: 'x' }] },
      },
    }),
    'rejected',
    /HTTP 400: INPUT_INVALID/,
  )
  await expectUpstreamError(
    answered.price(trade(), { status: 500, body: { name: 'INTERNAL_SERVER_ERROR', message: 'x', data: { zid: '0x1' } } }),
    'server error',
  )
  try {
    await answered.price(trade(), { status: 429, body: {}, headers: { 'retry-after': '2' } })
    assert.fail('429 must throw')
  } catch (error) {
    assert.equal((error as { kind: string }).kind, 'rate limited')
    assert.equal((error as { retryAfterMs: number }).retryAfterMs, 2000)
  }
})

test('an answer for another trade, an inexact amount, or a transaction asking for ETH on a token input is refused, never a number', async () => {
  const price = fixture('0x/allowance-holder-price.json')
  await expectUpstreamError(answered.price(trade(), { body: { ...price, sellAmount: '1' } }), 'invalid response', /sellAmount/)
  await expectUpstreamError(answered.price(trade(), { body: { ...price, buyToken: DAI } }), 'invalid response', /buyToken/)
  await expectUpstreamError(answered.price(trade(), { body: { ...price, buyAmount: '1e30' } }), 'invalid response', /buyAmount/)
  await expectUpstreamError(answered.price(trade(), { body: { ...price, gas: null } }), 'invalid response', /gas/)
  await expectUpstreamError(answered.price(trade(), { text: '<html>502</html>' }), 'invalid response', /not JSON/)
  const quote = fixture('0x/allowance-holder-quote.json')
  await expectUpstreamError(
    answered.executable({ ...trade(), taker: TAKER }, { body: { ...quote, transaction: { ...quote.transaction, value: '5' } } }),
    'invalid response',
    /transaction.value/,
  )
  await expectUpstreamError(
    answered.executable({ ...trade(), taker: TAKER }, { body: { ...quote, transaction: undefined } }),
    'invalid response',
    /transaction/,
  )
})

test('integrator fee: swapFeeRecipient, swapFeeBps and swapFeeToken = buyToken (its monetization guide); the answer must carry it', async () => {
  const recipient = '0xa8aAC589a67ecfade31efDE49A062cc21D68a64e'
  const fee = { bps: 25, recipient } as const
  const priced = fixture('0x/allowance-holder-price.json')
  const charged = { ...priced, fees: { ...priced.fees, integratorFee: { amount: '250081', token: USDT.toLowerCase(), type: 'volume' } } }
  const { call, requests } = recordedRequester({ body: charged })
  assert.deepEqual(await zeroEx.price(trade({ fee }), call, settings), { outputAmount: 100_032_748n, gasUnits: 288_095n })
  assert.deepEqual(requests[0].query, {
    chainId: '1',
    sellToken: USDC,
    buyToken: USDT,
    sellAmount: '100000000',
    taker: undefined,
    gasPrice: undefined,
    slippageBps: '100',
    swapFeeRecipient: recipient,
    swapFeeBps: '25',
    swapFeeToken: USDT,
  })
  // Without the fee in the answer its buyAmount would be before the caller's fee: never a number.
  await expectUpstreamError(
    answered.price(trade({ fee }), { body: priced }),
    'invalid response',
    /fees\.integratorFee: missing although swapFeeBps 25/,
  )
  const wrongToken = { ...charged, fees: { ...charged.fees, integratorFee: { amount: '1', token: USDC.toLowerCase(), type: 'volume' } } }
  await expectUpstreamError(answered.price(trade({ fee }), { body: wrongToken }), 'invalid response', /fees\.integratorFee\.token/)
  const quote = recordedRequester({ body: { ...fixture('0x/allowance-holder-quote.json'), fees: charged.fees } })
  await zeroEx.executable({ ...trade({ fee }), taker: TAKER }, quote.call, settings)
  assert.equal(quote.requests[0].query?.swapFeeBps, '25')
  assert.equal(quote.requests[0].query?.swapFeeToken, USDT)
})
