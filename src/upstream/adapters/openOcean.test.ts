import assert from 'node:assert/strict'
import { test } from 'vitest'
import { expectUpstreamError, fixture, recordedRequester, testSettings } from '../../../test/fixtures/upstreams/recordedRequester.ts'
import { answeredBy } from '../../../test/fixtures/upstreams/answeredBy.ts'
import { upstreamTrade } from '../../../test/fixtures/upstreams/upstreamTrade.ts'
import { openOcean } from './openOcean.ts'

// Encoding against OpenOcean's documented example (GET /v4/1/quote?inTokenAddress=0xEeee…&
// outTokenAddress=USDC&amountDecimals=1000000000000000000&gasPriceDecimals=1000000000); decoding
// against its documented answers (test/fixtures/upstreams/openocean).

const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const USER = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const trade = upstreamTrade({
  chainId: 1,
  tokenIn: ETH,
  tokenOut: USDC,
  amountIn: 10n ** 18n,
  slippageBps: 100,
  gasPriceWei: 1_000_000_000n,
  decimals: { tokenIn: 18, tokenOut: 6 },
})
const settings = testSettings('openocean', { apiKey: undefined })
const answered = answeredBy(openOcean, settings)
/** The documented example's /quote query; /swap and the fee add to it. */
const quoteQuery = {
  inTokenAddress: ETH,
  outTokenAddress: USDC,
  amountDecimals: '1000000000000000000',
  gasPriceDecimals: '1000000000',
}

test('request: the documented quote query; swap adds account and slippage in percent', async () => {
  const quote = recordedRequester({ body: fixture('openocean/quote.json') })
  await openOcean.price(trade(), quote.call, settings)
  assert.equal(quote.requests[0].path, '/v4/1/quote')
  assert.deepEqual(quote.requests[0].query, quoteQuery)
  const swap = recordedRequester({ body: fixture('openocean/swap.json') })
  await openOcean.executable({ ...trade(), taker: USER }, swap.call, settings)
  assert.equal(swap.requests[0].path, '/v4/1/swap')
  assert.deepEqual(swap.requests[0].query, {
    ...quoteQuery,
    slippage: '1',
    account: USER,
  })
  assert.deepEqual(openOcean.headers(settings), {})
})

test('the documented answers decode: estimatedGas as a string (/quote) and as a number (/swap)', async () => {
  assert.deepEqual(await answered.price(trade(), { body: fixture('openocean/quote.json') }), {
    outputAmount: 2_345_670_000n,
    gasUnits: 129_211n,
  })
  const swap = fixture('openocean/swap.json')
  const answer = await answered.executable({ ...trade(), taker: USER }, { body: swap })
  assert.equal(answer.gasUnits, 516_812n)
  assert.deepEqual(answer.transaction, { to: swap.data.to, data: '0x90411a32', value: 10n ** 18n, gas: 516_812n })
})

test('code 200 with data null is no route; a non-200 code inside an HTTP 200 is an error; a slippage below 0.05 % is not sent', async () => {
  await expectUpstreamError(answered.price(trade(), { body: fixture('openocean/no-route.json') }), 'no route')
  // A pair it cannot route also comes back as code 200 with outAmount "0": no route, never a quote of 0.
  const zero = fixture('openocean/quote.json')
  await expectUpstreamError(
    answered.price(trade(), { body: { ...zero, data: { ...zero.data, outAmount: '0' } } }),
    'no route',
    /outAmount: 0/,
  )
  await expectUpstreamError(
    answered.price(trade(), { body: { code: 400, error: 'amountDecimals is required' } }),
    'rejected',
    /amountDecimals/,
  )
  await expectUpstreamError(answered.price(trade(), { body: { code: 500, error: 'busy' } }), 'server error')
  const none = recordedRequester()
  await expectUpstreamError(openOcean.executable({ ...trade({ slippageBps: 4 }), taker: USER }, none.call, settings), 'unsupported', /0.05/)
  assert.equal(none.requests.length, 0)
  const quote = fixture('openocean/quote.json')
  await expectUpstreamError(
    answered.price(trade(), { body: { ...quote, data: { ...quote.data, inAmount: '5' } } }),
    'invalid response',
    /inAmount/,
  )
  await expectUpstreamError(
    answered.price(trade(), { body: { ...quote, data: { ...quote.data, outAmount: -3 } } }),
    'invalid response',
    /outAmount/,
  )
})

test('integrator fee: referrer and referrerFee (percent) exist on /swap only, so a price with a fee is /swap without account', async () => {
  const referrer = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
  const fee = { bps: 25, recipient: referrer } as const
  const swapData = fixture('openocean/swap.json')
  const quoteOnly = {
    code: 200,
    data: {
      inToken: swapData.data.inToken,
      outToken: swapData.data.outToken,
      inAmount: swapData.data.inAmount,
      outAmount: swapData.data.outAmount,
      estimatedGas: swapData.data.estimatedGas,
      minOutAmount: swapData.data.minOutAmount,
      price_impact: '0.01%',
    },
  }
  const price = recordedRequester({ body: quoteOnly })
  const answer = await openOcean.price(trade({ fee }), price.call, settings)
  assert.equal(answer.outputAmount, BigInt(swapData.data.outAmount))
  assert.equal(price.requests[0].path, '/v4/1/swap')
  assert.deepEqual(price.requests[0].query, {
    ...quoteQuery,
    referrer,
    referrerFee: '0.25',
  })
  const swap = recordedRequester({ body: swapData })
  await openOcean.executable({ ...trade({ fee }), taker: USER }, swap.call, settings)
  assert.deepEqual(swap.requests[0].query, {
    ...quoteQuery,
    slippage: '1',
    account: USER,
    referrer,
    referrerFee: '0.25',
  })
})
