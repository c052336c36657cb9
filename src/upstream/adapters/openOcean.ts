import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { UpstreamAdapter, UpstreamRequester, UpstreamTrade } from '../UpstreamAdapter.ts'
import type { UpstreamHttpResponse } from '../http/createUpstreamHttpClient.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'
import { assertSameTrade } from './assertSameTrade.ts'
import { bpsAsPercent } from './bpsAsPercent.ts'
import { checkUpstreamBody } from './checkUpstreamBody.ts'
import { upstreamStatusError } from './upstreamStatusError.ts'
import { upstreamTransaction } from './upstreamTransaction.ts'
import { WireAddress, WireDecimal, WireHex, WireNumberish } from './upstreamWireScalars.ts'

// OpenOcean API v4 (openocean-finance/OpenOcean-skills references/api-reference.md, commit
// 3b211212, after apis.openocean.finance/developer/apis/swap-api/api-v4): GET /v4/{chain}/quote and
// /v4/{chain}/swap on https://open-api.openocean.finance, no key on the public plan.
// `amountDecimals` and `gasPriceDecimals` are base units and wei (`amount`/`gasPrice` are
// deprecated). Every answer is `{code, data}`: `code` other than 200 inside an HTTP 200 is an
// error, and `code: 200, data: null` is its no-route answer. `estimatedGas` is a string on /quote
// and a number on /swap.

const QuoteBody = Type.Object({
  code: Type.Literal(200),
  data: Type.Object({ inAmount: WireDecimal, outAmount: WireDecimal, estimatedGas: WireNumberish }),
})
const SwapBody = Type.Object({
  code: Type.Literal(200),
  data: Type.Object({
    inAmount: WireDecimal,
    outAmount: WireDecimal,
    estimatedGas: WireNumberish,
    from: WireAddress,
    to: WireAddress,
    value: WireDecimal,
    data: WireHex,
  }),
})
const QuoteValidator = Compile(QuoteBody)
const SwapValidator = Compile(SwapBody)
const ErrorValidator = Compile(
  Type.Object({ code: Type.Number(), error: Type.Optional(Type.String()), message: Type.Optional(Type.String()) }),
)

/** OpenOcean's `slippage` is a percent in 0.05..50. */
const MIN_SLIPPAGE_BPS = 5
const MAX_SLIPPAGE_BPS = 5_000

async function get(
  path: 'quote' | 'swap',
  query: Record<string, string | undefined>,
  trade: UpstreamTrade,
  request: UpstreamRequester,
): Promise<UpstreamHttpResponse> {
  const response = await request({
    method: 'GET',
    path: `/v4/${trade.chainId}/${path}`,
    query: {
      inTokenAddress: trade.tokenIn,
      outTokenAddress: trade.tokenOut,
      amountDecimals: trade.amountIn.toString(),
      // Required; a zero gas price is not a price it accepts.
      gasPriceDecimals: (trade.gasPriceWei > 0n ? trade.gasPriceWei : 1n).toString(),
      ...query,
    },
  })
  const error = ErrorValidator.Check(response.json) ? response.json : undefined
  if (response.status !== 200 || (error && error.code !== 200)) {
    const status =
      response.status === 200 && error ? { ...response, status: error.code >= 400 && error.code < 600 ? error.code : 400 } : response
    throw upstreamStatusError({ response: status, message: error?.error ?? error?.message })
  }
  if (error?.code === 200 && (response.json as { data?: unknown }).data === null) throw new UpstreamError('no route', 'data: null')
  return response
}

/** OpenOcean answers a pair it cannot route with code 200 and `outAmount: "0"`: no route, never a quote of nothing. */
function routedAmount(outAmount: string | number): bigint {
  const amount = parseUpstreamAmount({ value: outAmount, field: 'data.outAmount' })
  if (amount === 0n) throw new UpstreamError('no route', 'data.outAmount: 0')
  return amount
}

/**
 * OpenOcean v4: GET /quote for indicative quotes; GET /swap with `account` (the taker) and
 * `slippage` in percent for the transaction (its router, `to`, is the approval target).
 *
 * @example
 * const answer = await openOcean.price(trade, call, settings) // { outputAmount: 2345670000n, gasUnits: 129211n }
 */
export const openOcean: UpstreamAdapter = {
  id: 'openocean',
  headers: () => ({}),
  price: async (trade, request) => {
    // `referrerFee` exists on /swap only; /swap without `account` is its quote, with the fee taken.
    const response = trade.fee ? await get('swap', feeQuery(trade), trade, request) : await get('quote', {}, trade, request)
    const data = checkUpstreamBody({ validator: QuoteValidator, response }).data
    assertSameTrade({ field: 'data.inAmount', got: data.inAmount, want: trade.amountIn })
    return {
      outputAmount: routedAmount(data.outAmount),
      gasUnits: parseUpstreamAmount({ value: data.estimatedGas, field: 'data.estimatedGas' }),
    }
  },
  executable: async (trade, request) => {
    if (trade.slippageBps < MIN_SLIPPAGE_BPS || trade.slippageBps > MAX_SLIPPAGE_BPS) {
      throw new UpstreamError('unsupported', `slippageBps ${trade.slippageBps} is outside its slippage range of 0.05..50 %`)
    }
    const response = await get(
      'swap',
      { slippage: String(trade.slippageBps / 100), account: trade.taker, ...feeQuery(trade) },
      trade,
      request,
    )
    const data = checkUpstreamBody({ validator: SwapValidator, response }).data
    assertSameTrade({ field: 'data.inAmount', got: data.inAmount, want: trade.amountIn })
    assertSameTrade({ field: 'data.from', got: data.from, want: trade.taker })
    const gasUnits = parseUpstreamAmount({ value: data.estimatedGas, field: 'data.estimatedGas' })
    const transaction = upstreamTransaction({
      trade,
      to: data.to,
      data: data.data,
      value: data.value,
      gas: data.estimatedGas,
      allowanceTarget: data.to,
    })
    return { outputAmount: routedAmount(data.outAmount), gasUnits, transaction }
  },
  executableCalls: 1,
  // "the percentage of in-token you wish to receive", 0.01..5 (percent) in API v4.
  fee: { takenFrom: 'tokenIn', maxBps: 500, parameters: 'referrerFee, in percent' },
}

function feeQuery(trade: UpstreamTrade): Record<string, string> {
  return trade.fee ? { referrer: trade.fee.recipient, referrerFee: bpsAsPercent(trade.fee.bps) } : {}
}
