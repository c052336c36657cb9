import assert from 'node:assert/strict'
import { test } from 'vitest'
import { expectUpstreamError, fixture, recordedRequester, testSettings } from '../../../test/fixtures/upstreams/recordedRequester.ts'
import { answeredBy } from '../../../test/fixtures/upstreams/answeredBy.ts'
import { upstreamTrade } from '../../../test/fixtures/upstreams/upstreamTrade.ts'
import { oneInch } from './oneInch.ts'

// Encoding against 1inch's documented example (business.1inch.com, GET /swap/v6.x/{chain}/quote:
// src 0xeeee…, dst 1INCH 0x1111…c302, amount 10000000000000000, `Authorization: Bearer`); decoding
// against the examples of its OpenAPI models (test/fixtures/upstreams/1inch).

const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const ONEINCH = '0x111111111117dC0aa78b770fA6A738034120C302'
const FROM = '0x1111111111111111111111111111111111111111'
const trade = upstreamTrade({
  chainId: 1,
  tokenIn: ETH,
  tokenOut: ONEINCH,
  amountIn: 10_000_000_000_000_000n,
  slippageBps: 100,
  decimals: { tokenIn: 18, tokenOut: 18 },
})
const settings = testSettings('1inch')
const answered = answeredBy(oneInch, settings)
/** The documented example's /quote query; /swap and the fee add to it. */
const quoteQuery = { src: ETH, dst: ONEINCH, amount: '10000000000000000', includeGas: 'true', gasPrice: undefined }

test('request: the documented /quote query with includeGas, /swap with from, origin and slippage in percent, the Bearer key', async () => {
  const quote = recordedRequester({ body: fixture('1inch/quote.json') })
  await oneInch.price(trade(), quote.call, settings)
  assert.equal(quote.requests[0].path, '/swap/v6.0/1/quote')
  assert.deepEqual(quote.requests[0].query, quoteQuery)
  assert.deepEqual(oneInch.headers(settings), { authorization: 'Bearer test-upstream-key-0123456789' })
  const swap = recordedRequester({ body: fixture('1inch/swap.json') })
  await oneInch.executable(
    { ...trade({ slippageBps: 50, gasPriceWei: 6_994_090_150n }), taker: FROM },
    swap.call,
    testSettings('1inch', { options: { version: 'v6.1' } }),
  )
  assert.equal(swap.requests[0].path, '/swap/v6.1/1/swap')
  assert.deepEqual(swap.requests[0].query, {
    ...quoteQuery,
    from: FROM,
    origin: FROM,
    slippage: '0.5',
    disableEstimate: 'true',
    gasPrice: '6994090150',
  })
})

test('/swap is not simulated from the taker (disableEstimate): tx.gas 0 is no gas limit, the gas is the approximation includeGas adds', async () => {
  const swap = fixture('1inch/swap.json')
  const answer = await answered.executable({ ...trade(), taker: FROM }, { body: { ...swap, gas: 98_765, tx: { ...swap.tx, gas: 0 } } })
  assert.equal(answer.gasUnits, 98_765n)
  assert.equal(answer.transaction?.gas, undefined, 'no simulated gas limit to pass on')
})

test('/swap without a gas figure (gas absent or 0, tx.gas 0) is priced with /quote’s gas for the same trade, never as free', async () => {
  const swap = fixture('1inch/swap.json')
  for (const gas of [undefined, 0]) {
    const calls = recordedRequester(
      { body: { ...swap, gas, tx: { ...swap.tx, gas: 0 } } },
      { body: { ...fixture('1inch/quote.json'), gas: 123_456 } },
    )
    const answer = await oneInch.executable({ ...trade(), taker: FROM }, calls.call, settings)
    assert.equal(answer.gasUnits, 123_456n, `gas ${gas}`)
    assert.equal(answer.outputAmount, BigInt(swap.dstAmount), "the output is /swap's, the transaction's")
    assert.deepEqual(
      calls.requests.map((r) => [r.path, r.query]),
      [
        ['/swap/v6.0/1/swap', calls.requests[0].query],
        ['/swap/v6.0/1/quote', quoteQuery],
      ],
    )
  }
  // /quote without its gas either: refused, not a free trade.
  await expectUpstreamError(
    answered.executable(
      { ...trade(), taker: FROM },
      { body: { ...swap, tx: { ...swap.tx, gas: 0 } } },
      { body: { ...fixture('1inch/quote.json'), gas: undefined } },
    ),
    'invalid response',
    /gas/,
  )
})

test('the documented answers decode: dstAmount and gas; the swap transaction with its router as approval target', async () => {
  assert.deepEqual(await answered.price(trade(), { body: fixture('1inch/quote.json') }), {
    outputAmount: 62_131_879_850_006_790_961n,
    gasUnits: 100_000n,
  })
  const swap = fixture('1inch/swap.json')
  const answer = await answered.executable({ ...trade(), taker: FROM }, { body: swap })
  assert.equal(answer.outputAmount, 62_131_879_850_006_790_961n)
  assert.equal(answer.gasUnits, 121_363n)
  assert.deepEqual(answer.transaction, { to: swap.tx.to, data: swap.tx.data, value: 10_000_000_000_000_000n, gas: 121_363n })
  const token = await answered.executable(
    { ...trade({ tokenIn: ONEINCH, tokenOut: ETH }), taker: FROM },
    { body: { ...swap, tx: { ...swap.tx, value: '0' } } },
  )
  assert.equal(token.transaction?.allowanceTarget, swap.tx.to)
})

test('"insufficient liquidity" is its no-route answer; other 400s are rejected; a slippage above 50 % is not sent', async () => {
  await expectUpstreamError(
    answered.price(trade(), { status: 400, body: fixture('1inch/error-insufficient-liquidity.json') }),
    'no route',
    /insufficient liquidity/,
  )
  await expectUpstreamError(
    answered.price(trade(), {
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', description: 'cannot estimate', requestId: 'x', meta: [] },
    }),
    'rejected',
    /cannot estimate/,
  )
  await expectUpstreamError(
    answered.price(trade(), { status: 401, body: { statusCode: 401, error: 'Unauthorized', description: 'Unauthorized' } }),
    'rejected',
    /401/,
  )
  const none = recordedRequester()
  await expectUpstreamError(
    oneInch.executable({ ...trade({ slippageBps: 5001 }), taker: FROM }, none.call, settings),
    'unsupported',
    /50 %/,
  )
  assert.equal(none.requests.length, 0)
})

test('a quote without the gas it was asked for, another token, or a transaction from someone else is refused', async () => {
  const quote = fixture('1inch/quote.json')
  await expectUpstreamError(answered.price(trade(), { body: { ...quote, gas: undefined } }), 'invalid response', /gas/)
  await expectUpstreamError(
    answered.price(trade(), { body: { ...quote, dstToken: { ...quote.dstToken, address: ETH } } }),
    'invalid response',
    /dstToken/,
  )
  await expectUpstreamError(
    answered.price(trade(), { body: { ...quote, dstAmount: 62131879850006790961 } }),
    'invalid response',
    /dstAmount/,
  )
  const swap = fixture('1inch/swap.json')
  await expectUpstreamError(
    answered.executable({ ...trade(), taker: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }, { body: swap }),
    'invalid response',
    /tx.from/,
  )
})

test('integrator fee: `fee` in percent on /quote and the same on /swap with `referrer` (its swap parameters)', async () => {
  const referrer = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
  const fee = { bps: 25, recipient: referrer } as const
  const quote = recordedRequester({ body: fixture('1inch/quote.json') })
  await oneInch.price(trade({ fee }), quote.call, settings)
  assert.deepEqual(quote.requests[0].query, { ...quoteQuery, fee: '0.25' })
  const swap = recordedRequester({ body: fixture('1inch/swap.json') })
  await oneInch.executable({ ...trade({ fee: { bps: 150, recipient: referrer } }), taker: FROM }, swap.call, settings)
  assert.deepEqual(swap.requests[0].query, {
    ...quoteQuery,
    from: FROM,
    origin: FROM,
    slippage: '1',
    disableEstimate: 'true',
    fee: '1.5',
    referrer,
  })
  assert.deepEqual(oneInch.fee, { takenFrom: 'tokenIn', maxBps: 300, parameters: 'fee, in percent' })
})
