import assert from 'node:assert/strict'
import { test } from 'vitest'
import {
  expectUpstreamError,
  fixture,
  fixtureText,
  recordedRequester,
  testSettings,
} from '../../../test/fixtures/upstreams/recordedRequester.ts'
import { answeredBy } from '../../../test/fixtures/upstreams/answeredBy.ts'
import { upstreamTrade } from '../../../test/fixtures/upstreams/upstreamTrade.ts'
import { extractRawJsonMember } from './extractRawJsonMember.ts'
import { kyberSwap } from './kyberSwap.ts'

// Encoding against KyberSwap's OpenAPI document (EVMAPIs v2.12.1: GET /{chain}/api/v1/routes with
// tokenIn, tokenOut, amountIn; POST /{chain}/api/v1/route/build with the routeSummary unmodified,
// sender, recipient, slippageTolerance; `x-client-id`); decoding against its sample responses
// (test/fixtures/upstreams/kyberswap: Polygon WETH → USDC).

const WETH = '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619'
const USDC = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const TAKER = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const trade = upstreamTrade({
  chainId: 137,
  tokenIn: WETH,
  tokenOut: USDC,
  amountIn: 10n ** 18n,
  slippageBps: 50,
  decimals: { tokenIn: 18, tokenOut: 6 },
})
const settings = testSettings('kyberswap')
const answered = answeredBy(kyberSwap, settings)
/** The documented example's routes query; the fee adds to it. */
const routesQuery = { tokenIn: WETH, tokenOut: USDC, amountIn: '1000000000000000000', gasInclude: 'true', gasPrice: undefined }

test('request: the documented routes query and client id; route/build gets the routeSummary back byte for byte', async () => {
  const routesText = fixtureText('kyberswap/routes.json')
  const build = fixture('kyberswap/route-build.json')
  const { call, requests } = recordedRequester({ text: routesText }, { body: { ...build, data: { ...build.data, transactionValue: '0' } } })
  await kyberSwap.executable({ ...trade({ slippageBps: 2500 }), taker: TAKER }, call, settings)
  assert.equal(requests[0].path, '/polygon/api/v1/routes')
  assert.deepEqual(requests[0].query, routesQuery)
  assert.deepEqual(kyberSwap.headers(settings), { 'x-client-id': 'base-swap-aggregator', 'x-api-key': 'test-upstream-key-0123456789' })
  assert.deepEqual(
    kyberSwap.headers(testSettings('kyberswap', { apiKey: undefined })),
    { 'x-client-id': 'base-swap-aggregator' },
    'no key: the public host',
  )
  assert.equal(requests[1].method, 'POST')
  assert.equal(requests[1].path, '/polygon/api/v1/route/build')
  assert.equal(extractRawJsonMember(requests[1].rawBody!, ['routeSummary']), extractRawJsonMember(routesText, ['data', 'routeSummary']))
  const rest = JSON.parse(requests[1].rawBody!)
  assert.equal(rest.sender, TAKER)
  assert.equal(rest.recipient, TAKER)
  assert.equal(rest.slippageTolerance, 2500)
  assert.equal(rest.ignoreCappedSlippage, true, 'above 2000 bps the cap must be lifted explicitly')
})

test('the documented answers decode: amountOut and gas of the route, then the built transaction', async () => {
  assert.deepEqual(await answered.price(trade(), { text: fixtureText('kyberswap/routes.json') }), {
    outputAmount: 1_666_243_758n,
    gasUnits: 253_000n,
  })
  const build = fixture('kyberswap/route-build.json')
  const native = await answered.executable(
    { ...trade({ tokenIn: ETH }), taker: TAKER },
    { text: fixtureText('kyberswap/routes.json').replace('0x7ceb23fd6bc0add59e62ac25578270cff1b9f619', ETH.toLowerCase()) },
    { body: build },
  )
  assert.equal(native.outputAmount, 1_666_243_758n)
  assert.deepEqual(native.transaction, { to: build.data.routerAddress, data: build.data.data, value: 10n ** 18n, gas: 253_000n })
})

test('its sample build answer sends 1 ETH with a WETH input: refused as inconsistent', async () => {
  const { call } = recordedRequester({ text: fixtureText('kyberswap/routes.json') }, { body: fixture('kyberswap/route-build.json') })
  await expectUpstreamError(kyberSwap.executable({ ...trade(), taker: TAKER }, call, settings), 'invalid response', /transaction.value/)
})

test('its error codes: 4008/4011 no route (also inside an HTTP 200), others rejected; a route for another amount is refused', async () => {
  await expectUpstreamError(
    answered.price(trade(), { status: 400, body: fixture('kyberswap/error-4008-route-not-found.json') }),
    'no route',
    /4008/,
  )
  await expectUpstreamError(
    answered.price(trade(), { status: 404, body: fixture('kyberswap/error-4011-token-not-found.json') }),
    'no route',
    /4011/,
  )
  await expectUpstreamError(
    answered.price(trade(), { status: 200, body: { code: 4008, message: 'route not found', requestId: 'x' } }),
    'no route',
  )
  await expectUpstreamError(
    answered.price(trade(), { status: 400, body: { code: 4001, message: 'unable to bind query parameters', requestId: 'x' } }),
    'rejected',
    /4001/,
  )
  await expectUpstreamError(
    answered.price(trade(), { text: fixtureText('kyberswap/routes.json').replace('"amountIn": "1000000000000000000"', '"amountIn": "1"') }),
    'invalid response',
    /amountIn/,
  )
  await expectUpstreamError(answered.price(trade({ chainId: 999_999 })), 'unsupported', /chain/)
})

test('integrator fee: feeAmount (bps) with isInBps, chargeFeeBy=currency_out, feeReceiver; the documented route with that fee decodes, another fee does not', async () => {
  // The documented sample route carries extraFee {feeAmount 10, currency_out, isInBps, 0x0513…}: its
  // amountOut 1666243758 is its route's 1667911669 less floor(1667911669 · 10 / 10⁴).
  const feeReceiver = '0x0513c794bC2c65C6f374a86D6ad04425e32Df22e'
  const text = fixtureText('kyberswap/routes.json')
  const { call, requests } = recordedRequester({ text })
  assert.deepEqual(await kyberSwap.price(trade({ fee: { bps: 10, recipient: feeReceiver } }), call, settings), {
    outputAmount: 1_666_243_758n,
    gasUnits: 253_000n,
  })
  assert.equal(1_667_911_669n - (1_667_911_669n * 10n) / 10_000n, 1_666_243_758n)
  assert.deepEqual(requests[0].query, {
    ...routesQuery,
    feeAmount: '10',
    chargeFeeBy: 'currency_out',
    isInBps: 'true',
    feeReceiver,
  })
  await expectUpstreamError(
    answered.price(trade({ fee: { bps: 20, recipient: feeReceiver } }), { text }),
    'invalid response',
    /extraFee\.feeAmount/,
  )
  await expectUpstreamError(
    answered.price(trade({ fee: { bps: 10, recipient: TAKER } }), { text }),
    'invalid response',
    /extraFee\.feeReceiver/,
  )
})
