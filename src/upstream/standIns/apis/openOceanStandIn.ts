import type { StandInApi, StandInReply } from '../StandInApi.ts'
import { priceWithFee, type StandInFee } from '../priceWithFee.ts'
import { readStandInTrade } from '../readStandInTrade.ts'
import { standInCalldata } from '../standInCalldata.ts'

// OpenOcean API v4 as documented: GET /v4/{chain}/quote and /swap, `amountDecimals` and
// `gasPriceDecimals` required; every answer `{code, data}`, a refusal as a non-200 `code` inside an
// HTTP 200, and `{code: 200, data: null}` when it cannot fill.

const EXCHANGE = '0x6352a56caadC4F1E25CD6c75970Fa768A3304e64'
const refuse = (code: number, error: string): StandInReply => ({ status: 200, body: { code, error } })
/** Its answers come as HTTP 200 too: `code` 200 with `data`. */
const answered = (data: unknown): StandInReply => ({ status: 200, body: { code: 200, data } })
const tokenInfo = (address: string) => ({ address, decimals: 18, symbol: 'SIM', name: 'Simulated', usd: '0', volume: 0 })

/** The OpenOcean API v4 stand-in. */
export const openOceanStandIn: StandInApi = {
  id: 'openocean',
  answer: async (request, market, settings) => {
    const m = /^\/v4\/([a-z0-9]+)\/(quote|swap)$/.exec(request.path)
    if (request.method !== 'GET' || !m) return { status: 404, body: { code: 404, error: 'Not Found' } }
    if (m[1] !== String(settings.chainId) && !(m[1] === 'base' && settings.chainId === 8453)) return refuse(400, 'chain not supported')
    const q = request.query
    if (q.amountDecimals === undefined) return refuse(400, 'amountDecimals is required')
    if (!/^[0-9]+$/.test(q.gasPriceDecimals ?? '')) return refuse(400, 'gasPriceDecimals is required')
    const { trade, problem = '' } = readStandInTrade({
      tokenIn: q.inTokenAddress,
      tokenOut: q.outTokenAddress,
      amountIn: q.amountDecimals,
      fields: ['inTokenAddress', 'outTokenAddress', 'amountDecimals'],
    })
    if (!trade) return refuse(400, problem)
    const slippage = q.slippage === undefined ? 1 : Number(q.slippage)
    if (!(slippage >= 0.05 && slippage <= 50)) return refuse(400, 'slippage must be in 0.05..50')
    // /swap only: `referrerFee` percent (0.01..5) of the in-token for `referrer`; the rest is swapped.
    let fee: StandInFee | undefined
    if (m[2] === 'swap' && q.referrerFee !== undefined) {
      if (!/^[0-9]+(\.[0-9]{1,4})?$/.test(q.referrerFee) || !(Number(q.referrerFee) >= 0.01 && Number(q.referrerFee) <= 5))
        return refuse(400, 'referrerFee must be in 0.01..5')
      if (!/^0x[a-fA-F0-9]{40}$/.test(q.referrer ?? '')) return refuse(400, 'referrer must be an address when referrerFee is set')
      fee = { ppm: BigInt(Math.round(Number(q.referrerFee) * 10_000)), takenFrom: 'tokenIn' }
    }
    const priced = await priceWithFee({ market, trade, fee })
    const base = {
      inToken: tokenInfo(trade.tokenIn),
      outToken: tokenInfo(trade.tokenOut),
      inAmount: trade.amountIn.toString(),
      outAmount: (priced?.amountOut ?? 0n).toString(),
    }
    // A pair it cannot route: /quote answers code 200 with `outAmount: "0"` (and no dexes), as the real
    // API does for tokens it knows without a route; /swap, `data: null`.
    if (m[2] === 'quote') {
      return answered({
        ...base,
        estimatedGas: (priced?.gasUnits ?? 0n).toString(),
        dexes: priced ? [{ dexIndex: 0, dexCode: 'Simulated', swapAmount: trade.amountIn.toString() }] : [],
        path: { from: trade.tokenIn, to: trade.tokenOut, parts: priced ? 10 : 0, routes: [] },
        save: 0,
        price_impact: '0.00%',
        exchange: EXCHANGE,
      })
    }
    if (!priced) return openOceanStandIn.noRoute()
    const minOut = (priced.amountOut * BigInt(Math.floor((100 - slippage) * 100))) / 10_000n
    // Without `account` /swap answers the quote only (no calldata).
    if (q.account === undefined)
      return answered({ ...base, estimatedGas: Number(priced.gasUnits), minOutAmount: minOut.toString(), price_impact: '0.00%' })
    if (!/^0x[a-fA-F0-9]{40}$/.test(q.account)) return refuse(400, 'account must be an address')
    const native = trade.tokenIn.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    return answered({
      ...base,
      estimatedGas: Number(priced.gasUnits),
      minOutAmount: minOut.toString(),
      from: q.account,
      to: EXCHANGE,
      value: native ? trade.amountIn.toString() : '0',
      gasPrice: q.gasPriceDecimals,
      data: standInCalldata({
        tag: '0x90411a32',
        taker: q.account as `0x${string}`,
        tokenIn: trade.tokenIn,
        tokenOut: trade.tokenOut,
        amountIn: trade.amountIn,
        minOut,
      }),
      chainId: settings.chainId,
      price_impact: '0.00%',
    })
  },
  noRoute: () => answered(null),
  serverError: () => ({ status: 500, body: { code: 500, error: 'Internal Server Error' } }),
  rateLimited: (retryAfterSec) => ({
    status: 429,
    body: { code: 429, error: 'Too Many Requests' },
    headers: { 'retry-after': String(retryAfterSec) },
  }),
  tamper: (reply) => {
    const body = reply.body as { code: number; data: Record<string, unknown> | null }
    return { ...reply, body: { ...body, data: body.data ? { ...body.data, inAmount: '1' } : null } }
  },
  wrongShape: () => answered({ outAmount: 'lots' }),
}
