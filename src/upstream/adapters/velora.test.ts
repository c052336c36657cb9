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
import { velora } from './velora.ts'

// Encoding against Velora's documented GET /prices (srcToken, srcDecimals, destToken,
// destDecimals, amount, side, network, version) and POST /transactions/{network} (the priceRoute
// unmodified, srcAmount, slippage in bps, userAddress); decoding against test/fixtures/upstreams/velora.

const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const USER = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const trade = upstreamTrade({
  chainId: 8453,
  tokenIn: ETH,
  tokenOut: USDC,
  amountIn: 10n ** 18n,
  slippageBps: 50,
  decimals: { tokenIn: 18, tokenOut: 6 },
})
const settings = testSettings('velora', { apiKey: undefined })
const answered = answeredBy(velora, settings)
/** The documented example's /prices query for USER; the fee adds to it. */
const pricesQuery = {
  srcToken: ETH,
  srcDecimals: '18',
  destToken: USDC,
  destDecimals: '6',
  amount: '1000000000000000000',
  side: 'SELL',
  network: '8453',
  version: '6.2',
  userAddress: USER,
}

test('request: /prices with decimals (the native asset mixed-case), then /transactions with the route byte for byte', async () => {
  const text = fixtureText('velora/prices.json')
  const { call, requests } = recordedRequester({ text }, { body: fixture('velora/transactions.json') })
  await velora.executable({ ...trade(), taker: USER }, call, settings)
  assert.equal(requests[0].path, '/prices')
  assert.deepEqual(requests[0].query, pricesQuery)
  assert.equal(requests[1].path, '/transactions/8453')
  assert.deepEqual(requests[1].query, { ignoreChecks: 'true', ignoreGasEstimate: 'true' })
  assert.equal(extractRawJsonMember(requests[1].rawBody!, ['priceRoute']), extractRawJsonMember(text, ['priceRoute']))
  const body = JSON.parse(requests[1].rawBody!)
  assert.deepEqual(
    { ...body, priceRoute: undefined },
    {
      priceRoute: undefined,
      srcToken: ETH,
      srcDecimals: 18,
      destToken: USDC,
      destDecimals: 6,
      srcAmount: '1000000000000000000',
      slippage: 50,
      userAddress: USER,
    },
  )
})

test('UPSTREAM_VELORA_API_KEY is sent (X-API-KEY, as its SDK sends the partner key); without one, no key header', () => {
  assert.deepEqual(velora.headers(settings), {})
  assert.deepEqual(velora.headers(testSettings('velora')), { 'x-api-key': 'test-upstream-key-0123456789' })
})

test('the answers decode: destAmount and gasCost; the transaction, tokenTransferProxy as approval target', async () => {
  assert.deepEqual(await answered.price(trade(), { text: fixtureText('velora/prices.json') }), {
    outputAmount: 3_412_345_678n,
    gasUnits: 168_000n,
  })
  const tx = fixture('velora/transactions.json')
  const answer = await answered.executable({ ...trade(), taker: USER }, { text: fixtureText('velora/prices.json') }, { body: tx })
  assert.deepEqual(answer.transaction, { to: tx.to, data: tx.data, value: 10n ** 18n })
})

test('"No routes found" is no route; a BUY route or one for another amount is refused', async () => {
  await expectUpstreamError(answered.price(trade(), { status: 400, body: fixture('velora/error-no-routes.json') }), 'no route', /No routes/)
  await expectUpstreamError(answered.price(trade(), { status: 400, body: { error: 'Invalid tokens' } }), 'rejected', /Invalid tokens/)
  const route = fixture('velora/prices.json')
  await expectUpstreamError(
    answered.price(trade(), { body: { priceRoute: { ...route.priceRoute, side: 'BUY' } } }),
    'invalid response',
    /side/,
  )
  await expectUpstreamError(
    answered.price(trade(), { body: { priceRoute: { ...route.priceRoute, srcAmount: '2' } } }),
    'invalid response',
    /srcAmount/,
  )
})

test('integrator fee: partnerAddress and partnerFeeBps on /prices and again in the /transactions body (its monetization parameters)', async () => {
  const partnerAddress = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
  const { call, requests } = recordedRequester({ text: fixtureText('velora/prices.json') }, { body: fixture('velora/transactions.json') })
  await velora.executable({ ...trade({ fee: { bps: 30, recipient: partnerAddress } }), taker: USER }, call, settings)
  assert.deepEqual(requests[0].query, {
    ...pricesQuery,
    partnerAddress,
    partnerFeeBps: '30',
  })
  const body = JSON.parse(requests[1].rawBody!)
  assert.equal(body.partnerAddress, partnerAddress)
  assert.equal(body.partnerFeeBps, '30')
  assert.deepEqual(velora.fee, { takenFrom: 'tokenOut', maxBps: 200, parameters: 'partnerFeeBps' })
})
