import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import { getAddress } from 'viem'
import type { UpstreamAdapter, UpstreamRequester, UpstreamSettings, UpstreamTrade } from '../UpstreamAdapter.ts'
import type { UpstreamHttpResponse } from '../http/createUpstreamHttpClient.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'
import { assertSameTrade } from './assertSameTrade.ts'
import { checkUpstreamBody } from './checkUpstreamBody.ts'
import { upstreamStatusError } from './upstreamStatusError.ts'
import { upstreamTransaction } from './upstreamTransaction.ts'
import { WireAddress, WireDecimal, WireHex, WireNumberish } from './upstreamWireScalars.ts'

// Odos SOR API (docs.odos.xyz /api/sor/quote and /api/sor/assemble; field names cross-checked with
// semiotic-ai/odos-sdk `SingleQuoteResponse`, `AssembleRequest`, commit 362ec363): POST
// /sor/quote/{v3|v2} then POST /sor/assemble with the quote's `pathId` (valid 60 s, needs the
// `userAddr` given to the quote) on https://api.odos.xyz (enterprise: `X-API-Key`). The native asset
// is the zero address. Errors are `{detail, traceId, errorCode}` (2000: no viable path).

const ODOS_NATIVE = '0x0000000000000000000000000000000000000000'
const NO_ROUTE_CODES = new Set([2000, 4014, 4016])

const QuoteBody = Type.Object({
  inTokens: Type.Array(WireAddress, { minItems: 1 }),
  outTokens: Type.Array(WireAddress, { minItems: 1 }),
  inAmounts: Type.Array(WireDecimal, { minItems: 1 }),
  outAmounts: Type.Array(WireDecimal, { minItems: 1 }),
  gasEstimate: Type.Number({ minimum: 0 }),
  pathId: Type.Union([Type.String(), Type.Null()]),
})
const AssembleBody = Type.Object({
  transaction: Type.Object({ to: WireAddress, from: WireAddress, data: WireHex, value: WireNumberish, gas: Type.Optional(WireNumberish) }),
})
const QuoteValidator = Compile(QuoteBody)
const AssembleValidator = Compile(AssembleBody)
const ErrorValidator = Compile(Type.Object({ detail: Type.Optional(Type.String()), errorCode: Type.Optional(Type.Number()) }))

function failure(response: UpstreamHttpResponse): UpstreamError {
  const body = ErrorValidator.Check(response.json) ? response.json : undefined
  const code = body?.errorCode
  return upstreamStatusError({
    response,
    message: body ? `${code ?? ''} ${body.detail ?? ''}` : undefined,
    noRoute: code !== undefined && NO_ROUTE_CODES.has(code),
  })
}

const odosToken = (token: string) =>
  token.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' ? ODOS_NATIVE : getAddress(token)

/** Wei as Odos' `gasPrice` JSON number in gwei, written from the exact decimal (0.005123 gwei, not a float sum). */
const gweiNumber = (wei: bigint) => Number(`${wei / 1_000_000_000n}.${(wei % 1_000_000_000n).toString().padStart(9, '0')}`)

async function quote(trade: UpstreamTrade, request: UpstreamRequester, settings: UpstreamSettings) {
  const version = settings.options.quoteVersion === 'v2' ? 'v2' : 'v3'
  const response = await request({
    method: 'POST',
    path: `/sor/quote/${version}`,
    body: {
      chainId: trade.chainId,
      inputTokens: [{ tokenAddress: odosToken(trade.tokenIn), amount: trade.amountIn.toString() }],
      outputTokens: [{ tokenAddress: odosToken(trade.tokenOut), proportion: 1 }],
      slippageLimitPercent: trade.slippageBps / 100,
      // Our gas price (its `gasPrice`, in gwei), so its route weighs gas as we net it; absent: its own.
      ...(trade.gasPriceWei > 0n ? { gasPrice: gweiNumber(trade.gasPriceWei) } : {}),
      ...(trade.taker ? { userAddr: getAddress(trade.taker) } : {}),
      // API v3 fee delegation: a fraction (0.001 is 10 bps) of the output, for `feeRecipient`.
      ...(trade.fee ? { partnerFeePercent: trade.fee.bps / 10_000, feeRecipient: getAddress(trade.fee.recipient) } : {}),
      compact: true,
    },
  })
  if (response.status !== 200) throw failure(response)
  const body = checkUpstreamBody({ validator: QuoteValidator, response })
  assertSameTrade({ field: 'inTokens[0]', got: body.inTokens[0], want: odosToken(trade.tokenIn) })
  assertSameTrade({ field: 'outTokens[0]', got: body.outTokens[0], want: odosToken(trade.tokenOut) })
  assertSameTrade({ field: 'inAmounts[0]', got: body.inAmounts[0], want: trade.amountIn })
  return {
    body,
    answer: {
      outputAmount: parseUpstreamAmount({ value: body.outAmounts[0], field: 'outAmounts[0]' }),
      // Odos' naive gas estimate is a float: rounded up.
      gasUnits: parseUpstreamAmount({ value: body.gasEstimate, field: 'gasEstimate', allowFractionalNumber: true }),
    },
  }
}

/**
 * Odos SOR: POST /sor/quote/v3 (v2 with `UPSTREAM_ODOS_QUOTE_VERSION=v2`, same answer) for
 * indicative quotes; with a taker, the quote carries `userAddr` and its `pathId` is assembled by
 * POST /sor/assemble into the transaction (the router is the approval target).
 *
 * @example
 * const answer = await odos.price(trade, call, settings) // { outputAmount: …n, gasUnits: 187466n }
 */
export const odos: UpstreamAdapter = {
  id: 'odos',
  headers: (settings): Record<string, string> => (settings.apiKey ? { 'x-api-key': settings.apiKey } : {}),
  price: async (trade, request, settings) => (await quote(trade, request, settings)).answer,
  executable: async (trade, request, settings) => {
    const { body, answer } = await quote(trade, request, settings)
    if (!body.pathId) throw new UpstreamError('invalid response', 'pathId: missing although userAddr was given')
    const assembled = await request({
      method: 'POST',
      path: '/sor/assemble',
      body: { userAddr: getAddress(trade.taker), pathId: body.pathId, simulate: false },
    })
    if (assembled.status !== 200) throw failure(assembled)
    const tx = checkUpstreamBody({ validator: AssembleValidator, response: assembled }).transaction
    assertSameTrade({ field: 'transaction.from', got: tx.from, want: trade.taker })
    const transaction = upstreamTransaction({ trade, to: tx.to, data: tx.data, value: tx.value, gas: tx.gas, allowanceTarget: tx.to })
    return { ...answer, transaction }
  },
  executableCalls: 2,
  // docs.odos.xyz "API Monetization": no cap published; Odos keeps 20 % of it, the recipient gets 80 %.
  fee: {
    takenFrom: 'tokenOut',
    maxBps: undefined,
    parameters: 'partnerFeePercent',
    unsupported: (settings) =>
      settings.options.quoteVersion === 'v2'
        ? 'Odos takes a per-request integrator fee only on its quote v3 (UPSTREAM_ODOS_QUOTE_VERSION is v2)'
        : undefined,
  },
}
