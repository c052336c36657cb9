import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { UpstreamAdapter, UpstreamAnswer, UpstreamRequester, UpstreamSettings, UpstreamTrade } from '../UpstreamAdapter.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'
import { assertSameTrade } from './assertSameTrade.ts'
import { bpsAsPercent } from './bpsAsPercent.ts'
import { checkUpstreamBody } from './checkUpstreamBody.ts'
import { upstreamStatusError } from './upstreamStatusError.ts'
import { upstreamTransaction } from './upstreamTransaction.ts'
import { WireAddress, WireDecimal, WireHex, WireNumberish } from './upstreamWireScalars.ts'

// 1inch Classic Swap API v6 (the models of 1inch/1inch-sdk-go sdk-clients/aggregation, generated
// from its OpenAPI document; the business.1inch.com method pages): GET /swap/v6.0/{chainId}/quote
// and /swap on https://api.1inch.dev (v6.1: api.1inch.com), header `Authorization: Bearer <key>`.
// `dstAmount` is the output; `gas` comes with `includeGas=true` on /quote. /swap simulates the
// transaction from `from` (eth_estimateGas) unless `disableEstimate=true`, and refuses a taker
// without the balance or the allowance ("Not enough allowance"): a quote before approval, our normal
// flow, would fail, so we always send `disableEstimate=true`; `tx.gas` is then 0 (its developer
// FAQ), and the gas is the approximation `includeGas=true` adds (`gas`, as on /quote): assumed, no
// published /swap answer shows it (docs/upstreams.md). An answer without it is never taken as free:
// its gas is then /quote's `gas` for the same trade (a second call, which takes its own token).
// Errors are `{statusCode, error, description, requestId, meta}`; "insufficient liquidity" is its
// no-route answer.

const TokenInfo = Type.Object({ address: WireAddress })
const QuoteBody = Type.Object({
  dstAmount: WireDecimal,
  gas: Type.Optional(WireNumberish),
  dstToken: Type.Optional(TokenInfo),
  srcToken: Type.Optional(TokenInfo),
})
const SwapBody = Type.Object({
  dstAmount: WireDecimal,
  gas: Type.Optional(WireNumberish),
  dstToken: Type.Optional(TokenInfo),
  srcToken: Type.Optional(TokenInfo),
  tx: Type.Object({ from: WireAddress, to: WireAddress, data: WireHex, value: WireDecimal, gas: WireNumberish }),
})
const QuoteValidator = Compile(QuoteBody)
const SwapValidator = Compile(SwapBody)
const ErrorValidator = Compile(Type.Object({ description: Type.String() }))

/** 1inch's `slippage` is a percent in 0..50. */
const MAX_SLIPPAGE_BPS = 5_000

async function get(
  path: 'quote' | 'swap',
  query: Record<string, string | undefined>,
  trade: UpstreamTrade,
  request: UpstreamRequester,
  settings: UpstreamSettings,
) {
  const version = settings.options.version ?? 'v6.0'
  const response = await request({
    method: 'GET',
    path: `/swap/${version}/${trade.chainId}/${path}`,
    query: { src: trade.tokenIn, dst: trade.tokenOut, amount: trade.amountIn.toString(), ...query },
  })
  if (response.status !== 200) {
    const description = ErrorValidator.Check(response.json) ? response.json.description : undefined
    throw upstreamStatusError({
      response,
      message: description,
      noRoute: description !== undefined && /insufficient liquidity/i.test(description),
    })
  }
  return response
}

function checkTokens(body: { dstToken?: { address: string }; srcToken?: { address: string } }, trade: UpstreamTrade) {
  if (body.srcToken) assertSameTrade({ field: 'srcToken.address', got: body.srcToken.address, want: trade.tokenIn })
  if (body.dstToken) assertSameTrade({ field: 'dstToken.address', got: body.dstToken.address, want: trade.tokenOut })
}

/** `/quote?includeGas=true`: the output and 1inch's gas estimate for `trade` (the gas is required). */
async function quoteWithGas(trade: UpstreamTrade, request: UpstreamRequester, settings: UpstreamSettings): Promise<UpstreamAnswer> {
  const response = await get(
    'quote',
    {
      includeGas: 'true',
      gasPrice: trade.gasPriceWei > 0n ? trade.gasPriceWei.toString() : undefined,
      ...(trade.fee ? { fee: bpsAsPercent(trade.fee.bps) } : {}),
    },
    trade,
    request,
    settings,
  )
  const body = checkUpstreamBody({ validator: QuoteValidator, response })
  checkTokens(body, trade)
  if (body.gas === undefined) throw new UpstreamError('invalid response', 'gas: missing although includeGas=true was asked')
  return {
    outputAmount: parseUpstreamAmount({ value: body.dstAmount, field: 'dstAmount' }),
    gasUnits: parseUpstreamAmount({ value: body.gas, field: 'gas', allowFractionalNumber: true }),
  }
}

/**
 * 1inch Classic Swap API v6: `/quote?includeGas=true` for indicative quotes, `/swap` (with `from`,
 * `origin` and `slippage` in percent) for the transaction; the router (`tx.to`) is the approval
 * target. `UPSTREAM_ONEINCH_VERSION` picks the path version (`v6.0`; `v6.1` on api.1inch.com).
 *
 * @example
 * const answer = await oneInch.price(trade, call, settings) // { outputAmount: 62131879850006790961n, gasUnits: 100000n }
 */
export const oneInch: UpstreamAdapter = {
  id: '1inch',
  headers: (settings) => ({ authorization: `Bearer ${settings.apiKey ?? ''}` }),
  price: (trade, request, settings) => quoteWithGas(trade, request, settings),
  executable: async (trade, request, settings): Promise<UpstreamAnswer> => {
    if (trade.slippageBps > MAX_SLIPPAGE_BPS)
      throw new UpstreamError('unsupported', `slippageBps ${trade.slippageBps} is above its maximum slippage of 50 %`)
    const response = await get(
      'swap',
      {
        from: trade.taker,
        origin: trade.taker,
        slippage: String(trade.slippageBps / 100),
        // Not simulated from the taker (who has usually not approved yet); the approximate gas instead.
        disableEstimate: 'true',
        includeGas: 'true',
        gasPrice: trade.gasPriceWei > 0n ? trade.gasPriceWei.toString() : undefined,
        // The same `fee` as on /quote (its docs ask for it), paid to `referrer`.
        ...(trade.fee ? { fee: bpsAsPercent(trade.fee.bps), referrer: trade.fee.recipient } : {}),
      },
      trade,
      request,
      settings,
    )
    const body = checkUpstreamBody({ validator: SwapValidator, response })
    checkTokens(body, trade)
    assertSameTrade({ field: 'tx.from', got: body.tx.from, want: trade.taker })
    // With disableEstimate, tx.gas is 0 (nothing simulated): no gas limit is passed on, the caller estimates its own.
    const simulated = parseUpstreamAmount({ value: body.tx.gas, field: 'tx.gas', allowFractionalNumber: true })
    const transaction = upstreamTransaction({
      trade,
      to: body.tx.to,
      data: body.tx.data,
      value: body.tx.value,
      gas: simulated > 0n ? body.tx.gas : undefined,
      allowanceTarget: body.tx.to,
    })
    const approximate = body.gas === undefined ? 0n : parseUpstreamAmount({ value: body.gas, field: 'gas', allowFractionalNumber: true })
    // Neither figure (gas absent or 0, tx.gas 0): /quote's estimate for the same trade, never 0.
    const gasUnits = approximate > 0n ? approximate : simulated > 0n ? simulated : (await quoteWithGas(trade, request, settings)).gasUnits
    if (gasUnits === 0n) throw new UpstreamError('invalid response', 'gas: no gas estimate (neither /swap nor /quote gave one)')
    return { outputAmount: parseUpstreamAmount({ value: body.dstAmount, field: 'dstAmount' }), gasUnits, transaction }
  },
  executableCalls: 1,
  // "this percentage of src token amount will be sent to referrer, the rest will be used as input for a swap; min 0, max 3"
  fee: { takenFrom: 'tokenIn', maxBps: 300, parameters: 'fee, in percent' },
}
