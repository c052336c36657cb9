import type { StandInApi, StandInReply } from '../StandInApi.ts'
import { priceWithFee, type StandInFee } from '../priceWithFee.ts'
import { readStandInTrade } from '../readStandInTrade.ts'
import { standInCalldata } from '../standInCalldata.ts'

// 1inch Classic Swap API v6 as documented (its OpenAPI models, via 1inch/1inch-sdk-go): GET
// /swap/v6.{0,1}/{chainId}/{quote,swap}, `Authorization: Bearer <key>`, errors `{statusCode, error,
// description, requestId, meta}`, "insufficient liquidity" when it cannot fill; /swap refuses a taker
// that has not approved its router unless `disableEstimate=true` (then `tx.gas` is 0).

const ROUTER = '0x111111125421ca6dc452d289314280a0f8842a65'
const requestId = () => crypto.randomUUID()
const LABELS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
}
const error = (statusCode: number, description: string, meta: { type: string; value: string }[] = []): StandInReply => ({
  status: statusCode,
  body: { statusCode, error: LABELS[statusCode], description, requestId: requestId(), meta },
})

/** The 1inch Classic Swap API v6 stand-in. */
export const oneInchStandIn: StandInApi = {
  id: '1inch',
  answer: async (request, market, settings) => {
    const m = /^\/swap\/v6\.[01]\/([0-9]+)\/(quote|swap)$/.exec(request.path)
    if (request.method !== 'GET' || !m) return error(404, 'Not Found')
    const auth = request.headers.authorization
    if (typeof auth !== 'string' || !auth.startsWith('Bearer ') || (settings.apiKey !== undefined && auth !== `Bearer ${settings.apiKey}`))
      return error(401, 'Unauthorized')
    if (m[1] !== String(settings.chainId)) return error(400, `chain ${m[1]} is not supported`)
    const q = request.query
    const { trade, problem = '' } = readStandInTrade({
      tokenIn: q.src,
      tokenOut: q.dst,
      amountIn: q.amount,
      fields: ['src', 'dst', 'amount'],
    })
    if (!trade) return error(400, problem)
    const swap = m[2] === 'swap'
    if (swap && !/^0x[a-fA-F0-9]{40}$/.test(q.from ?? '')) return error(400, 'from must be a valid address')
    const slippage = Number(q.slippage)
    if (swap && (q.slippage === undefined || !(slippage >= 0 && slippage <= 50))) return error(400, 'slippage must be a number in 0..50')
    // `fee`: a percent (0..3) of the src amount, sent to `referrer`; the rest is swapped.
    let fee: StandInFee | undefined
    if (q.fee !== undefined) {
      if (!/^[0-9]+(\.[0-9]{1,4})?$/.test(q.fee) || Number(q.fee) > 3) return error(400, 'fee must be a number in 0..3')
      if (swap && Number(q.fee) > 0 && !/^0x[a-fA-F0-9]{40}$/.test(q.referrer ?? ''))
        return error(400, 'referrer must be a valid address when a fee is set')
      fee = { ppm: BigInt(Math.round(Number(q.fee) * 10_000)), takenFrom: 'tokenIn' }
    }
    const priced = await priceWithFee({ market, trade, fee })
    if (!priced) return oneInchStandIn.noRoute()
    const tokenInfo = (address: string) => ({ address: address.toLowerCase(), symbol: 'SIM', name: 'Simulated', decimals: 18, logoURI: '' })
    const body: Record<string, unknown> = { dstAmount: priced.amountOut.toString() }
    if (q.includeTokensInfo === 'true') Object.assign(body, { srcToken: tokenInfo(trade.tokenIn), dstToken: tokenInfo(trade.tokenOut) })
    if (!swap) {
      if (q.includeGas === 'true') body.gas = Number(priced.gasUnits)
      return { status: 200, body }
    }
    const native = trade.tokenIn.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    // The real /swap simulates the transaction from `from` unless `disableEstimate=true`, and a taker
    // that has not approved its router is refused. No taker approved the stand-in's router (it
    // executes nowhere), so a token swap it is asked to simulate is refused as 1inch refuses it.
    const estimate = q.disableEstimate !== 'true'
    if (estimate && !native)
      return error(400, `Not enough allowance. Amount: ${trade.amountIn}. Allowance: 0. Spender: ${ROUTER}`, [
        // As 1inch answers it (the body quoted in RichardAtCT/1inch_wrapper#15): the amount, then the allowance.
        { type: 'amount', value: trade.amountIn.toString() },
        { type: 'allowance', value: '0' },
      ])
    // Not simulated: `tx.gas` is 0 (its FAQ); `includeGas=true` adds the approximate `gas`, as on /quote.
    if (q.includeGas === 'true') body.gas = Number(priced.gasUnits)
    const minOut = (priced.amountOut * BigInt(Math.round((100 - slippage) * 100))) / 10_000n
    body.tx = {
      from: (q.from as string).toLowerCase(),
      to: ROUTER,
      data: standInCalldata({
        tag: '0x07ed2379',
        taker: q.from as `0x${string}`,
        tokenIn: trade.tokenIn,
        tokenOut: trade.tokenOut,
        amountIn: trade.amountIn,
        minOut,
      }),
      value: native ? trade.amountIn.toString() : '0',
      gas: estimate ? Number(priced.gasUnits) : 0,
      gasPrice: q.gasPrice ?? '5000000',
    }
    return { status: 200, body }
  },
  noRoute: () => error(400, 'insufficient liquidity', [{ type: 'toTokenAmount', value: '0' }]),
  serverError: () => error(500, 'Internal Server Error'),
  rateLimited: (retryAfterSec) => ({ ...error(429, 'Too Many Requests'), headers: { 'retry-after': String(retryAfterSec) } }),
  tamper: (reply) => ({
    ...reply,
    body: {
      ...(reply.body as object),
      dstToken: { address: '0x000000000000000000000000000000000000dead', symbol: 'X', name: 'X', decimals: 18, logoURI: '' },
    },
  }),
  wrongShape: () => ({ status: 200, body: { toAmount: '1' } }),
}
