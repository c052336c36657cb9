import assert from 'node:assert/strict'
import { test } from 'vitest'
import { expectUpstreamError, fixture, recordedRequester, testSettings } from '../../../test/fixtures/upstreams/recordedRequester.ts'
import { answeredBy } from '../../../test/fixtures/upstreams/answeredBy.ts'
import { upstreamTrade } from '../../../test/fixtures/upstreams/upstreamTrade.ts'
import { odos } from './odos.ts'

// Encoding against Odos' documented example (docs.odos.xyz /api/sor/quote: 10 USDC → ODOS on
// Base, `inputTokens`/`outputTokens` with checksummed addresses, `slippageLimitPercent`,
// `userAddr`, `compact`); decoding against test/fixtures/upstreams/odos.

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const ODOS = '0xca73ed1815e5915489570014e024b7EbE65dE679'
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const USER = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const trade = upstreamTrade({
  chainId: 8453,
  tokenIn: USDC,
  tokenOut: ODOS,
  amountIn: 10_000_000n,
  slippageBps: 50,
  decimals: { tokenIn: 6, tokenOut: 18 },
})
const settings = testSettings('odos', { apiKey: undefined })
const answered = answeredBy(odos, settings)

test('request: the documented quote body (the native asset as the zero address), then assemble with its pathId', async () => {
  const { call, requests } = recordedRequester({ body: fixture('odos/quote-v3.json') }, { body: fixture('odos/assemble.json') })
  await odos.executable({ ...trade(), taker: USER }, call, settings)
  assert.equal(requests[0].method, 'POST')
  assert.equal(requests[0].path, '/sor/quote/v3')
  assert.deepEqual(requests[0].body, {
    chainId: 8453,
    inputTokens: [{ tokenAddress: USDC, amount: '10000000' }],
    outputTokens: [{ tokenAddress: ODOS, proportion: 1 }],
    slippageLimitPercent: 0.5,
    userAddr: USER,
    compact: true,
  })
  assert.deepEqual(requests[1], {
    method: 'POST',
    path: '/sor/assemble',
    body: { userAddr: USER, pathId: 'a3f1b0de6e0c4f6f9f2d7a5b81c0e4d2', simulate: false },
  })
  const native = recordedRequester({ body: {} })
  await odos.price(trade({ tokenIn: ETH }), native.call, testSettings('odos', { options: { quoteVersion: 'v2' } })).catch(() => {})
  assert.equal(native.requests[0].path, '/sor/quote/v2')
  assert.equal(
    (native.requests[0].body as { inputTokens: { tokenAddress: string }[] }).inputTokens[0].tokenAddress,
    '0x0000000000000000000000000000000000000000',
  )
  assert.equal('userAddr' in (native.requests[0].body as object), false, 'no taker: no userAddr (and no pathId)')
  assert.deepEqual(odos.headers(settings), {})
  assert.deepEqual(odos.headers(testSettings('odos')), { 'x-api-key': 'test-upstream-key-0123456789' })
  // Our gas price goes with the quote, in gwei as Odos takes it (5,123,000 wei = 0.005123 gwei).
  const priced = recordedRequester({ body: fixture('odos/quote-v3.json') })
  await odos.price(trade({ gasPriceWei: 5_123_000n }), priced.call, settings)
  assert.equal((priced.requests[0].body as { gasPrice?: number }).gasPrice, 0.005123)
  const highGas = recordedRequester({ body: fixture('odos/quote-v3.json') })
  await odos.price(trade({ gasPriceWei: 12_000_000_001n }), highGas.call, settings)
  assert.equal((highGas.requests[0].body as { gasPrice?: number }).gasPrice, 12.000000001)
})

test('the answers decode: outAmounts[0], the float gas estimate rounded up, and the assembled transaction', async () => {
  assert.deepEqual(await answered.price(trade(), { body: fixture('odos/quote-v3.json') }), {
    outputAmount: 3_487_105_226_830_711_869_286n,
    gasUnits: 187_466n,
  })
  const assembled = fixture('odos/assemble.json')
  const answer = await answered.executable({ ...trade(), taker: USER }, { body: fixture('odos/quote-v3.json') }, { body: assembled })
  assert.deepEqual(answer.transaction, {
    to: assembled.transaction.to,
    data: assembled.transaction.data,
    value: 0n,
    gas: 374_932n,
    allowanceTarget: assembled.transaction.to,
  })
})

test('errorCode 2000 is no route; a 5xx is a server error; a quote for another amount or without a pathId is refused', async () => {
  await expectUpstreamError(answered.price(trade(), { status: 400, body: fixture('odos/error-no-viable-path.json') }), 'no route', /2000/)
  await expectUpstreamError(
    answered.price(trade(), { status: 500, body: { detail: 'Error getting quote, please try again', traceId: null, errorCode: 2999 } }),
    'server error',
    /2999/,
  )
  await expectUpstreamError(
    answered.price(trade(), { status: 429, text: 'Rate limit exceeded', headers: { 'retry-after': '1' } }),
    'rate limited',
  )
  const quote = fixture('odos/quote-v3.json')
  await expectUpstreamError(answered.price(trade(), { body: { ...quote, inAmounts: ['1'] } }), 'invalid response', /inAmounts/)
  await expectUpstreamError(
    answered.executable({ ...trade(), taker: USER }, { body: { ...quote, pathId: null } }),
    'invalid response',
    /pathId/,
  )
})

test('integrator fee: its API Monetization example (quote v3 body with partnerFeePercent 0.001 = 10 bps and a checksummed feeRecipient)', async () => {
  const feeRecipient = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
  const { call, requests } = recordedRequester({ body: fixture('odos/quote-v3.json') })
  await odos.price(trade({ slippageBps: 30, fee: { bps: 10, recipient: feeRecipient.toLowerCase() as `0x${string}` } }), call, settings)
  assert.deepEqual(requests[0].body, {
    chainId: 8453,
    inputTokens: [{ tokenAddress: USDC, amount: '10000000' }],
    outputTokens: [{ tokenAddress: ODOS, proportion: 1 }],
    slippageLimitPercent: 0.3,
    partnerFeePercent: 0.001,
    feeRecipient,
    compact: true,
  })
  assert.deepEqual(
    odos.fee.unsupported?.(testSettings('odos', { options: { quoteVersion: 'v2' } })),
    'Odos takes a per-request integrator fee only on its quote v3 (UPSTREAM_ODOS_QUOTE_VERSION is v2)',
  )
})
