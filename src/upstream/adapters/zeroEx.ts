import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { UpstreamAdapter, UpstreamAnswer, UpstreamRequester, UpstreamSettings, UpstreamTrade } from '../UpstreamAdapter.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'
import { assertSameTrade } from './assertSameTrade.ts'
import { checkUpstreamBody } from './checkUpstreamBody.ts'
import { upstreamStatusError } from './upstreamStatusError.ts'
import { upstreamTransaction } from './upstreamTransaction.ts'
import { WireAddress, WireDecimal, WireHex } from './upstreamWireScalars.ts'

// 0x Swap API v2 (0xProject/0x-docs fern/openapi.json, commit 2ec0a996): GET
// /swap/{allowance-holder|permit2}/{price|quote} on https://api.0x.org, chain by `chainId`, headers
// `0x-api-key` and `0x-version: v2` (both required). `buyAmount` is what the taker receives (net of
// 0x's own fee); `liquidityAvailable: false` (with only `zid`) is its no-route answer.

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

const Available = Type.Object({
  liquidityAvailable: Type.Literal(true),
  buyAmount: WireDecimal,
  sellAmount: WireDecimal,
  buyToken: WireAddress,
  sellToken: WireAddress,
  gas: Type.Optional(Nullable(WireDecimal)),
  allowanceTarget: Type.Optional(Nullable(WireAddress)),
  issues: Type.Optional(Nullable(Type.Object({ allowance: Type.Optional(Nullable(Type.Object({ spender: WireAddress }))) }))),
  transaction: Type.Optional(
    Type.Object({ to: WireAddress, data: WireHex, gas: Type.Optional(Nullable(WireDecimal)), value: WireDecimal }),
  ),
  permit2: Type.Optional(Nullable(Type.Object({ eip712: Type.Object({}) }))),
  fees: Type.Optional(
    Nullable(Type.Object({ integratorFee: Type.Optional(Nullable(Type.Object({ amount: WireDecimal, token: WireAddress }))) })),
  ),
})
const ResponseValidator = Compile(Available)
const ErrorBody = Type.Object({ name: Type.String(), message: Type.Optional(Type.String()) })
const ErrorValidator = Compile(ErrorBody)

/** 0x error names that mean "this trade cannot be filled here", not "your request is wrong". */
const NO_ROUTE_NAMES = new Set([
  'TOKEN_NOT_SUPPORTED',
  'BUY_TOKEN_NOT_AUTHORIZED_FOR_TRADE',
  'SELL_TOKEN_NOT_AUTHORIZED_FOR_TRADE',
  'SWAP_VALIDATION_FAILED',
])

async function call(
  endpoint: 'price' | 'quote',
  trade: UpstreamTrade,
  request: UpstreamRequester,
  settings: UpstreamSettings,
): Promise<UpstreamAnswer> {
  const flow = settings.options.flow === 'permit2' ? 'permit2' : 'allowance-holder'
  const response = await request({
    method: 'GET',
    path: `/swap/${flow}/${endpoint}`,
    query: {
      chainId: String(trade.chainId),
      sellToken: trade.tokenIn,
      buyToken: trade.tokenOut,
      sellAmount: trade.amountIn.toString(),
      taker: trade.taker,
      gasPrice: trade.gasPriceWei > 0n ? trade.gasPriceWei.toString() : undefined,
      slippageBps: String(trade.slippageBps),
      // The caller's fee, always in the buy token: then `buyAmount` is after it, like our own output.
      ...(trade.fee ? { swapFeeRecipient: trade.fee.recipient, swapFeeBps: String(trade.fee.bps), swapFeeToken: trade.tokenOut } : {}),
    },
  })
  if (response.status !== 200) {
    const body = ErrorValidator.Check(response.json) ? response.json : undefined
    throw upstreamStatusError({
      response,
      message: body ? `${body.name}${body.message ? ` (${body.message})` : ''}` : undefined,
      noRoute: body !== undefined && NO_ROUTE_NAMES.has(body.name),
    })
  }
  if ((response.json as { liquidityAvailable?: unknown } | undefined)?.liquidityAvailable === false)
    throw new UpstreamError('no route', 'liquidityAvailable: false')
  const body = checkUpstreamBody({ validator: ResponseValidator, response })
  assertSameTrade({ field: 'sellToken', got: body.sellToken, want: trade.tokenIn })
  assertSameTrade({ field: 'buyToken', got: body.buyToken, want: trade.tokenOut })
  assertSameTrade({ field: 'sellAmount', got: body.sellAmount, want: trade.amountIn })
  if (trade.fee) {
    // An answer without the fee asked for would be an output before the caller's fee.
    const charged = body.fees?.integratorFee
    if (!charged) throw new UpstreamError('invalid response', `fees.integratorFee: missing although swapFeeBps ${trade.fee.bps} was asked`)
    assertSameTrade({ field: 'fees.integratorFee.token', got: charged.token, want: trade.tokenOut })
  }
  const outputAmount = parseUpstreamAmount({ value: body.buyAmount, field: 'buyAmount' })
  if (endpoint === 'quote' && !body.transaction) throw new UpstreamError('invalid response', 'transaction: missing from a /quote answer')
  const gas = body.transaction?.gas ?? body.gas
  if (gas === undefined || gas === null) throw new UpstreamError('invalid response', 'gas: no gas estimate in the answer')
  const answer: UpstreamAnswer = { outputAmount, gasUnits: parseUpstreamAmount({ value: gas, field: 'gas' }) }
  if (endpoint === 'quote' && body.transaction) {
    if (flow === 'permit2' && !body.permit2) throw new UpstreamError('invalid response', 'permit2: missing from a permit2 /quote answer')
    // The taker approves `issues.allowance.spender` (or `allowanceTarget`), never `transaction.to`.
    const spender = body.issues?.allowance?.spender ?? body.allowanceTarget ?? undefined
    answer.transaction = upstreamTransaction({
      trade,
      ...body.transaction,
      allowanceTarget: spender,
      permit2: flow === 'permit2' ? body.permit2 : undefined,
    })
  }
  return answer
}

/**
 * 0x Swap API v2: `/price` for indicative quotes, `/quote` (taker required) for the transaction;
 * the allowance-holder flow by default, permit2 with `UPSTREAM_ZEROEX_FLOW=permit2` (its quote
 * carries the EIP-712 message to sign, whose signature the taker appends to the calldata).
 *
 * @example
 * const answer = await zeroEx.price(trade, call, settings) // { outputAmount: 100032748n, gasUnits: 288095n }
 */
export const zeroEx: UpstreamAdapter = {
  id: '0x',
  headers: (settings) => ({ '0x-api-key': settings.apiKey ?? '', '0x-version': 'v2' }),
  price: (trade, request, settings) => call('price', trade, request, settings),
  executable: (trade, request, settings) => call('quote', trade, request, settings),
  executableCalls: 1,
  fee: { takenFrom: 'tokenOut', maxBps: 1000, parameters: 'swapFeeBps' },
}
