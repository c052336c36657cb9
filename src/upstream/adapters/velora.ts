import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { UpstreamAdapter, UpstreamRequester, UpstreamTrade } from '../UpstreamAdapter.ts'
import type { UpstreamHttpResponse } from '../http/createUpstreamHttpClient.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'
import { assertSameTrade } from './assertSameTrade.ts'
import { checkUpstreamBody } from './checkUpstreamBody.ts'
import { extractRawJsonMember } from './extractRawJsonMember.ts'
import { jsonWithRawMember } from './jsonWithRawMember.ts'
import { upstreamStatusError } from './upstreamStatusError.ts'
import { upstreamTransaction } from './upstreamTransaction.ts'
import { WireAddress, WireDecimal, WireHex, WireNumberish } from './upstreamWireScalars.ts'

// Velora (ParaSwap) Market API v6.2 (docs.velora.xyz api-reference/market/prices and
// /transactions; the priceRoute shape of paraswap/paraswap-sdk's recorded answers): GET /prices
// then POST /transactions/{network} with the `priceRoute` passed back unmodified, on
// https://api.velora.xyz (formerly https://api.paraswap.io), no key on the public tier. `srcDecimals`
// and `destDecimals` are required; the native asset is the mixed-case 0xEeee…EEeE. Errors are
// `{error: "…"}`.

const PriceBody = Type.Object({
  priceRoute: Type.Object({
    srcToken: WireAddress,
    srcAmount: WireDecimal,
    destToken: WireAddress,
    destAmount: WireDecimal,
    gasCost: WireNumberish,
    tokenTransferProxy: WireAddress,
    side: Type.Optional(Type.String()),
  }),
})
const TransactionBody = Type.Object({
  from: WireAddress,
  to: WireAddress,
  value: WireDecimal,
  data: WireHex,
  gas: Type.Optional(WireNumberish),
})
const PriceValidator = Compile(PriceBody)
const TransactionValidator = Compile(TransactionBody)
const ErrorValidator = Compile(Type.Object({ error: Type.String() }))

/** Velora's wording for "cannot fill this trade". */
const NO_ROUTE = /no routes?|liquidity|price impact|token not found/i

function failure(response: UpstreamHttpResponse): UpstreamError {
  const message = ErrorValidator.Check(response.json) ? response.json.error : undefined
  return upstreamStatusError({ response, message, noRoute: message !== undefined && NO_ROUTE.test(message) })
}

async function prices(trade: UpstreamTrade, request: UpstreamRequester) {
  const decimals = await trade.decimals()
  const response = await request({
    method: 'GET',
    path: '/prices',
    query: {
      srcToken: trade.tokenIn,
      srcDecimals: String(decimals.tokenIn),
      destToken: trade.tokenOut,
      destDecimals: String(decimals.tokenOut),
      amount: trade.amountIn.toString(),
      side: 'SELL',
      network: String(trade.chainId),
      version: '6.2',
      userAddress: trade.taker,
      // The caller's fee, taken from the destination token: `destAmount` is after it.
      ...(trade.fee ? { partnerAddress: trade.fee.recipient, partnerFeeBps: String(trade.fee.bps) } : {}),
    },
  })
  if (response.status !== 200) throw failure(response)
  const route = checkUpstreamBody({ validator: PriceValidator, response }).priceRoute
  if (route.side !== undefined && route.side !== 'SELL')
    throw new UpstreamError('invalid response', `priceRoute.side: ${route.side}, a SELL was asked for`)
  assertSameTrade({ field: 'priceRoute.srcToken', got: route.srcToken, want: trade.tokenIn })
  assertSameTrade({ field: 'priceRoute.destToken', got: route.destToken, want: trade.tokenOut })
  assertSameTrade({ field: 'priceRoute.srcAmount', got: route.srcAmount, want: trade.amountIn })
  return {
    response,
    decimals,
    route,
    answer: {
      outputAmount: parseUpstreamAmount({ value: route.destAmount, field: 'priceRoute.destAmount' }),
      gasUnits: parseUpstreamAmount({ value: route.gasCost, field: 'priceRoute.gasCost' }),
    },
  }
}

/**
 * Velora Market API: GET /prices (`side=SELL`, `version=6.2`) for indicative quotes; for the
 * transaction, POST /transactions/{network} with the route as received, `slippage` in bps and the
 * taker as `userAddress`, with `ignoreChecks` (the taker may approve after seeing the quote) and
 * `ignoreGasEstimate` (the route's `gasCost` is the estimate). `tokenTransferProxy` is the approval
 * target.
 *
 * @example
 * const answer = await velora.price(trade, call, settings) // { outputAmount: …n, gasUnits: …n }
 */
export const velora: UpstreamAdapter = {
  id: 'velora',
  // The partner key, when set, in the header Velora's SDK sends it in (`X-API-KEY`); the public API takes none.
  headers: (settings): Record<string, string> => (settings.apiKey ? { 'x-api-key': settings.apiKey } : {}),
  price: async (trade, request) => (await prices(trade, request)).answer,
  executable: async (trade, request) => {
    const { response, decimals, route, answer } = await prices(trade, request)
    const rawRoute = extractRawJsonMember(response.text, ['priceRoute'])
    if (rawRoute === undefined) throw new UpstreamError('invalid response', 'priceRoute: not found in the raw body')
    const rest = {
      srcToken: trade.tokenIn,
      srcDecimals: decimals.tokenIn,
      destToken: trade.tokenOut,
      destDecimals: decimals.tokenOut,
      srcAmount: trade.amountIn.toString(),
      slippage: trade.slippageBps,
      userAddress: trade.taker,
      ...(trade.fee ? { partnerAddress: trade.fee.recipient, partnerFeeBps: String(trade.fee.bps) } : {}),
    }
    const built = await request({
      method: 'POST',
      path: `/transactions/${trade.chainId}`,
      query: { ignoreChecks: 'true', ignoreGasEstimate: 'true' },
      rawBody: jsonWithRawMember({ name: 'priceRoute', raw: rawRoute, rest }),
    })
    if (built.status !== 200) throw failure(built)
    const tx = checkUpstreamBody({ validator: TransactionValidator, response: built })
    assertSameTrade({ field: 'from', got: tx.from, want: trade.taker })
    const transaction = upstreamTransaction({
      trade,
      to: tx.to,
      data: tx.data,
      value: tx.value,
      gas: tx.gas,
      allowanceTarget: route.tokenTransferProxy,
    })
    return { ...answer, transaction }
  },
  executableCalls: 2,
  // Velora's monetization docs: Market keeps 15 % of it; its SDK documents a maximum of 200 bps.
  fee: { takenFrom: 'tokenOut', maxBps: 200, parameters: 'partnerFeeBps' },
}
