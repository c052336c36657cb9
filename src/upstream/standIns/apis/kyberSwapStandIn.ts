import { keccak256, toHex } from 'viem'
import { extractRawJsonMember } from '../../adapters/extractRawJsonMember.ts'
import type { StandInApi, StandInReply } from '../StandInApi.ts'
import { priceWithFee, type StandInFee } from '../priceWithFee.ts'
import { readStandInTrade } from '../readStandInTrade.ts'
import { remember } from '../remember.ts'
import { standInCalldata } from '../standInCalldata.ts'

// KyberSwap Aggregator [V1] as documented (EVMAPIs v2.12.1): GET /{chain}/api/v1/routes and POST
// /{chain}/api/v1/route/build, `{code: 0, message: "successfully", data, requestId}`, errors
// `{code, message, requestId}` (4001 query malformed, 4002 body malformed, 4008 route not found).
// /route/build must receive the routeSummary exactly as /routes sent it: this stand-in compares the
// bytes (KyberSwap checks its checksum), and its route carries an integer past 2^53 that a
// re-serialised copy would change.

const ROUTER = '0x6131B5fae19EA4f9D964eAc0408E4408b66337b5'
const SLUGS: Record<string, number> = { base: 8453, ethereum: 1, arbitrum: 42161, optimism: 10, polygon: 137, bsc: 56 }
const requestId = () => crypto.randomUUID()
const fail = (status: number, code: number, message: string): StandInReply => ({ status, body: { code, message, requestId: requestId() } })

/** The KyberSwap Aggregator stand-in. */
export const kyberSwapStandIn: StandInApi = {
  id: 'kyberswap',
  answer: async (request, market, settings) => {
    const m = /^\/([a-z]+)\/api\/v1\/(routes|route\/build)$/.exec(request.path)
    if (!m) return fail(404, 404, 'not found')
    if (SLUGS[m[1]] !== settings.chainId) return fail(400, 4001, 'unable to bind query parameters')
    if (m[2] === 'routes') {
      if (request.method !== 'GET') return fail(405, 405, 'method not allowed')
      const q = request.query
      const { trade, problem = '' } = readStandInTrade({
        tokenIn: q.tokenIn,
        tokenOut: q.tokenOut,
        amountIn: q.amountIn,
        fields: ['tokenIn', 'tokenOut', 'amountIn'],
      })
      if (!trade) return fail(400, 4001, `unable to bind query parameters: ${problem}`)
      // The client's fee: `feeAmount` bps (with `isInBps`) of the input or the output, to `feeReceiver`.
      let fee: StandInFee | undefined
      let extraFee = { feeAmount: '', chargeFeeBy: '', isInBps: false, feeReceiver: '' }
      if (q.chargeFeeBy) {
        if (q.chargeFeeBy !== 'currency_in' && q.chargeFeeBy !== 'currency_out')
          return fail(400, 4001, 'unable to bind query parameters: chargeFeeBy')
        if (!/^0x[a-fA-F0-9]{40}$/.test(q.feeReceiver ?? ''))
          return fail(400, 4001, 'unable to bind query parameters: feeReceiver is required with chargeFeeBy')
        if (!/^[0-9]+$/.test(q.feeAmount ?? '')) return fail(400, 4001, 'unable to bind query parameters: feeAmount')
        // Absolute (wei) fees exist in its API; this stand-in simulates the bps form only.
        if (q.isInBps !== 'true')
          return fail(400, 4001, 'unable to bind query parameters: this stand-in simulates fees in bps only (isInBps=true)')
        if (Number(q.feeAmount) >= 10_000) return fail(400, 4001, 'unable to bind query parameters: feeAmount')
        fee = { ppm: BigInt(q.feeAmount!) * 100n, takenFrom: q.chargeFeeBy === 'currency_in' ? 'tokenIn' : 'tokenOut' }
        extraFee = { feeAmount: q.feeAmount!, chargeFeeBy: q.chargeFeeBy, isInBps: true, feeReceiver: q.feeReceiver! }
      }
      const priced = await priceWithFee({ market, trade, fee })
      if (!priced) return kyberSwapStandIn.noRoute()
      const routeID = crypto.randomUUID()
      const summary = {
        tokenIn: trade.tokenIn.toLowerCase(),
        amountIn: trade.amountIn.toString(),
        amountInUsd: '0',
        tokenOut: trade.tokenOut.toLowerCase(),
        amountOut: priced.amountOut.toString(),
        amountOutUsd: '0',
        gas: priced.gasUnits.toString(),
        gasPrice: q.gasPrice ?? '5000000',
        gasUsd: '0',
        l1FeeUsd: '0',
        extraFee,
        route: [
          [
            {
              pool: '0x4b543e89351faa242cb0172b2da0cdb52db699b4',
              tokenIn: trade.tokenIn.toLowerCase(),
              tokenOut: trade.tokenOut.toLowerCase(),
              swapAmount: trade.amountIn.toString(),
              amountOut: priced.amountOut.toString(),
              exchange: 'simulated',
              poolType: 'simulated',
              poolExtra: null,
              extra: null,
            },
          ],
        ],
        routeID,
        checksum: '0',
        timestamp: Math.floor(settings.now() / 1000),
      }
      // An integer JSON.parse cannot hold exactly (as RFQ order ids can be): it must come back as sent.
      const summaryText = JSON.stringify(summary).replace('"extra":null', '"extra":{"orderId":12345678901234567891}')
      const checksum = BigInt(keccak256(toHex(summaryText)).slice(0, 18)).toString()
      const sent = summaryText.replace('"checksum":"0"', `"checksum":"${checksum}"`)
      remember(settings, `kyber:${routeID}`, sent)
      const text = `{"code":0,"message":"successfully","data":{"routeSummary":${sent},"routerAddress":"${ROUTER}"},"requestId":"${requestId()}"}`
      return { status: 200, body: JSON.parse(text), raw: text }
    }
    if (request.method !== 'POST') return fail(405, 405, 'method not allowed')
    const body = request.json as Record<string, unknown> | undefined
    const raw = extractRawJsonMember(request.text, ['routeSummary'])
    const routeID = (body?.routeSummary as { routeID?: unknown } | undefined)?.routeID
    if (!body || raw === undefined || typeof routeID !== 'string') return fail(400, 4002, 'unable to bind request body')
    if ((settings.memory.get(`kyber:${routeID}`) as { value?: string } | undefined)?.value !== raw)
      return fail(400, 4002, 'unable to bind request body: routeSummary was modified (checksum mismatch)')
    if (!/^0x[a-fA-F0-9]{40}$/.test(String(body.sender)) || !/^0x[a-fA-F0-9]{40}$/.test(String(body.recipient)))
      return fail(400, 4002, 'unable to bind request body: sender and recipient are required')
    const slippage = body.slippageTolerance === undefined ? 0 : Number(body.slippageTolerance)
    if (!(slippage >= 0) || (slippage > 2000 && body.ignoreCappedSlippage !== true))
      return fail(400, 4000, 'bad request: slippageTolerance must be in [0, 2000]')
    const summary = JSON.parse(raw) as { tokenIn: string; tokenOut: string; amountIn: string; amountOut: string; gas: string }
    const native = summary.tokenIn === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    const minOut = (BigInt(summary.amountOut) * BigInt(Math.floor(10_000 - slippage))) / 10_000n
    return {
      status: 200,
      body: {
        code: 0,
        message: 'successfully',
        data: {
          amountIn: summary.amountIn,
          amountInUsd: '0',
          amountOut: summary.amountOut,
          amountOutUsd: '0',
          gas: summary.gas,
          gasUsd: '0',
          additionalCostUsd: '0',
          additionalCostMessage: 'L1 fee that pays for rolls up cost',
          data: standInCalldata({
            tag: '0xe21fd0e9',
            taker: body.sender as `0x${string}`,
            tokenIn: summary.tokenIn as `0x${string}`,
            tokenOut: summary.tokenOut as `0x${string}`,
            amountIn: BigInt(summary.amountIn),
            minOut,
          }),
          routerAddress: ROUTER,
          transactionValue: native ? summary.amountIn : '0',
        },
        requestId: requestId(),
      },
    }
  },
  noRoute: () => fail(400, 4008, 'route not found'),
  serverError: () => fail(500, 500, 'internal server error'),
  rateLimited: (retryAfterSec) => ({ ...fail(429, 429, 'too many requests'), headers: { 'retry-after': String(retryAfterSec) } }),
  tamper: (reply) => {
    const body = reply.body as { data?: { routeSummary?: Record<string, unknown>; amountIn?: string } }
    if (body.data?.routeSummary) body.data.routeSummary.amountIn = '1'
    else if (body.data) body.data.amountIn = '1'
    return { ...reply, body, raw: undefined }
  },
  wrongShape: () => ({ status: 200, body: { code: 0, message: 'successfully', data: { routerAddress: ROUTER } } }),
}
