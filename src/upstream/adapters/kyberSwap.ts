import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { UpstreamAdapter, UpstreamRequester, UpstreamSettings, UpstreamTrade } from '../UpstreamAdapter.ts'
import type { UpstreamHttpResponse } from '../http/createUpstreamHttpClient.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'
import { assertSameTrade } from './assertSameTrade.ts'
import { checkUpstreamBody } from './checkUpstreamBody.ts'
import { extractRawJsonMember } from './extractRawJsonMember.ts'
import { jsonWithRawMember } from './jsonWithRawMember.ts'
import { upstreamStatusError } from './upstreamStatusError.ts'
import { upstreamTransaction } from './upstreamTransaction.ts'
import { WireAddress, WireDecimal, WireHex } from './upstreamWireScalars.ts'

// KyberSwap Aggregator API, [V1] routes then route/build (KyberNetwork/kyberswap-documentation,
// KyberSwapAggregator_EVMAPIs_v2.12.1.yaml, commit c370ffad): GET /{chain}/api/v1/routes and POST
// /{chain}/api/v1/route/build on https://aggregator-api.kyberswap.com (or the key gateway
// https://api.kyberswap.com/swap with `X-Api-Key`), header `x-client-id` on both. Answers are
// `{code: 0, message, data, requestId}`; errors `{code, message, requestId}` (4008/4010 route not
// found, 4009 amountIn too large, 4011 token not found: its no-route answers).

/** The chain names KyberSwap's paths use. */
const CHAIN_SLUGS: Record<number, string> = { 1: 'ethereum', 10: 'optimism', 56: 'bsc', 137: 'polygon', 8453: 'base', 42161: 'arbitrum' }
const NO_ROUTE_CODES = new Set([4008, 4009, 4010, 4011])
/** route/build caps `slippageTolerance` at 2000 bps unless `ignoreCappedSlippage` is set. */
const CAPPED_SLIPPAGE_BPS = 2_000

const RoutesBody = Type.Object({
  code: Type.Literal(0),
  data: Type.Object({
    routeSummary: Type.Object({
      tokenIn: WireAddress,
      amountIn: WireDecimal,
      tokenOut: WireAddress,
      amountOut: WireDecimal,
      gas: WireDecimal,
      extraFee: Type.Optional(
        Type.Object({ feeAmount: Type.String(), chargeFeeBy: Type.String(), isInBps: Type.Boolean(), feeReceiver: Type.String() }),
      ),
    }),
    routerAddress: WireAddress,
  }),
})
const BuildBody = Type.Object({
  code: Type.Literal(0),
  data: Type.Object({
    amountIn: WireDecimal,
    amountOut: WireDecimal,
    gas: WireDecimal,
    data: WireHex,
    routerAddress: WireAddress,
    transactionValue: WireDecimal,
  }),
})
const RoutesValidator = Compile(RoutesBody)
const BuildValidator = Compile(BuildBody)
const ErrorValidator = Compile(Type.Object({ code: Type.Number(), message: Type.Optional(Type.String()) }))

function failure(response: UpstreamHttpResponse): UpstreamError {
  const body = ErrorValidator.Check(response.json) ? response.json : undefined
  // KyberSwap answers some refusals inside an HTTP 200 with a non-zero `code`.
  const status = response.status === 200 && body ? { ...response, status: 400 } : response
  return upstreamStatusError({
    response: status,
    message: body ? `${body.code} ${body.message ?? ''}` : undefined,
    noRoute: body !== undefined && NO_ROUTE_CODES.has(body.code),
  })
}

function slug(trade: UpstreamTrade): string {
  const name = CHAIN_SLUGS[trade.chainId]
  if (!name) throw new UpstreamError('unsupported', `chain ${trade.chainId} has no KyberSwap chain name here`)
  return name
}

async function routes(trade: UpstreamTrade, request: UpstreamRequester) {
  const response = await request({
    method: 'GET',
    path: `/${slug(trade)}/api/v1/routes`,
    query: {
      tokenIn: trade.tokenIn,
      tokenOut: trade.tokenOut,
      amountIn: trade.amountIn.toString(),
      gasInclude: 'true',
      gasPrice: trade.gasPriceWei > 0n ? trade.gasPriceWei.toString() : undefined,
      // The caller's fee in bps of the output: `amountOut` is then after it (its documented example).
      ...(trade.fee
        ? { feeAmount: String(trade.fee.bps), chargeFeeBy: 'currency_out', isInBps: 'true', feeReceiver: trade.fee.recipient }
        : {}),
    },
  })
  if (response.status !== 200 || (response.json as { code?: unknown } | undefined)?.code !== 0) throw failure(response)
  const body = checkUpstreamBody({ validator: RoutesValidator, response })
  const summary = body.data.routeSummary
  assertSameTrade({ field: 'routeSummary.tokenIn', got: summary.tokenIn, want: trade.tokenIn })
  assertSameTrade({ field: 'routeSummary.tokenOut', got: summary.tokenOut, want: trade.tokenOut })
  assertSameTrade({ field: 'routeSummary.amountIn', got: summary.amountIn, want: trade.amountIn })
  if (trade.fee) {
    // The route carries the fee it was priced with (and route/build charges it): it must be ours.
    const fee = summary.extraFee
    if (!fee || fee.chargeFeeBy !== 'currency_out' || !fee.isInBps)
      throw new UpstreamError('invalid response', `routeSummary.extraFee: not the ${trade.fee.bps} bps of the output asked for`)
    assertSameTrade({ field: 'routeSummary.extraFee.feeAmount', got: fee.feeAmount, want: BigInt(trade.fee.bps) })
    assertSameTrade({ field: 'routeSummary.extraFee.feeReceiver', got: fee.feeReceiver, want: trade.fee.recipient })
  }
  return { response, summary }
}

/**
 * KyberSwap Aggregator: [V1] GET /routes for indicative quotes (gas-inclusive routing); for the
 * transaction, the route's `routeSummary` goes back byte for byte to POST /route/build with the
 * taker as sender and recipient and `slippageTolerance` in bps. The router is the approval target.
 *
 * @example
 * const answer = await kyberSwap.price(trade, call, settings) // { outputAmount: 1666243758n, gasUnits: 253000n }
 */
export const kyberSwap: UpstreamAdapter = {
  id: 'kyberswap',
  headers: (settings) => ({
    'x-client-id': settings.options.clientId ?? 'base-swap-aggregator',
    ...(settings.apiKey ? { 'x-api-key': settings.apiKey } : {}),
  }),
  price: async (trade, request) => {
    const { summary } = await routes(trade, request)
    return {
      outputAmount: parseUpstreamAmount({ value: summary.amountOut, field: 'routeSummary.amountOut' }),
      gasUnits: parseUpstreamAmount({ value: summary.gas, field: 'routeSummary.gas' }),
    }
  },
  executable: async (trade, request, settings: UpstreamSettings) => {
    const { response } = await routes(trade, request)
    const rawSummary = extractRawJsonMember(response.text, ['data', 'routeSummary'])
    if (rawSummary === undefined) throw new UpstreamError('invalid response', 'data.routeSummary: not found in the raw body')
    const rest = {
      sender: trade.taker,
      recipient: trade.taker,
      origin: trade.taker,
      slippageTolerance: trade.slippageBps,
      ...(trade.slippageBps > CAPPED_SLIPPAGE_BPS ? { ignoreCappedSlippage: true } : {}),
      source: settings.options.clientId ?? 'base-swap-aggregator',
    }
    const built = await request({
      method: 'POST',
      path: `/${slug(trade)}/api/v1/route/build`,
      rawBody: jsonWithRawMember({ name: 'routeSummary', raw: rawSummary, rest }),
    })
    if (built.status !== 200 || (built.json as { code?: unknown } | undefined)?.code !== 0) throw failure(built)
    const data = checkUpstreamBody({ validator: BuildValidator, response: built }).data
    assertSameTrade({ field: 'amountIn', got: data.amountIn, want: trade.amountIn })
    const gasUnits = parseUpstreamAmount({ value: data.gas, field: 'gas' })
    const transaction = upstreamTransaction({
      trade,
      to: data.routerAddress,
      data: data.data,
      value: data.transactionValue,
      gas: data.gas,
      allowanceTarget: data.routerAddress,
    })
    return { outputAmount: parseUpstreamAmount({ value: data.amountOut, field: 'amountOut' }), gasUnits, transaction }
  },
  executableCalls: 2,
  // No cap published; `feeAmount` with `isInBps` is bps of the output (`chargeFeeBy=currency_out`).
  fee: { takenFrom: 'tokenOut', maxBps: undefined, parameters: 'feeAmount with isInBps' },
}
