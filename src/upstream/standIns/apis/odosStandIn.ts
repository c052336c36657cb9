import { getAddress } from 'viem'
import type { StandInApi, StandInReply } from '../StandInApi.ts'
import { priceWithFee, type StandInFee } from '../priceWithFee.ts'
import { readStandInTrade } from '../readStandInTrade.ts'
import { remember } from '../remember.ts'
import { standInCalldata } from '../standInCalldata.ts'

// Odos SOR as documented: POST /sor/quote/{v2,v3} (native asset: the zero address; `pathId` only
// when `userAddr` is given), then POST /sor/assemble with that `userAddr` and `pathId` within 60 s;
// errors `{detail, traceId, errorCode}` (2000 no viable path, 4xxx invalid input).

const ROUTER = '0x0D05a7D3448512B78fa8A9e46c4872C88C4a0D05'
const ZERO = '0x0000000000000000000000000000000000000000'
const PATH_LIFETIME_MS = 60_000
const fail = (status: number, errorCode: number, detail: string): StandInReply => ({
  status,
  body: { detail, traceId: crypto.randomUUID(), errorCode },
})
const odosAddress = (a: string) => (a.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' ? ZERO : getAddress(a))

type Path = {
  userAddr: string
  tokenIn: string
  tokenOut: string
  amountIn: string
  amountOut: string
  gasUnits: string
  slippagePercent: number
}

/** The Odos SOR stand-in. */
export const odosStandIn: StandInApi = {
  id: 'odos',
  answer: async (request, market, settings) => {
    if (request.method !== 'POST') return fail(405, 1000, 'Method Not Allowed')
    const body = request.json as Record<string, any> | undefined
    if (!body || typeof body !== 'object') return fail(400, 4000, 'Invalid request')
    if (/^\/sor\/quote\/v[23]$/.test(request.path)) {
      if (body.chainId !== settings.chainId) return fail(400, 4001, 'Invalid chain ID')
      const input = Array.isArray(body.inputTokens) && body.inputTokens.length === 1 ? body.inputTokens[0] : undefined
      const output = Array.isArray(body.outputTokens) && body.outputTokens.length === 1 ? body.outputTokens[0] : undefined
      if (!input || !output) return fail(400, 4009, 'Invalid token count')
      if (output.proportion !== 1) return fail(400, 4015, 'Invalid token proportions')
      if (typeof input.amount !== 'string')
        return fail(400, 4019, 'Input Amount should be positive integer in string form with < 64 digits')
      const { trade, problem = '' } = readStandInTrade({
        tokenIn: input.tokenAddress,
        tokenOut: output.tokenAddress,
        amountIn: input.amount,
        fields: ['inputTokens', 'outputTokens', 'amount'],
        nativeForms: [ZERO],
      })
      if (!trade) return fail(400, problem.startsWith('amount') ? 4011 : 4010, problem)
      const slippagePercent = body.slippageLimitPercent === undefined ? 0.3 : Number(body.slippageLimitPercent)
      if (!(slippagePercent >= 0 && slippagePercent <= 100)) return fail(400, 4006, 'Slippage tolerance too high')
      if (body.userAddr !== undefined && !/^0x[a-fA-F0-9]{40}$/.test(String(body.userAddr))) return fail(400, 4004, 'Invalid user address')
      // API v3 fee delegation: `partnerFeePercent` (a fraction: 0.001 is 0.1 %) of the output for
      // `feeRecipient` (checksummed). Quote v2 predates it (its fees come from referral codes).
      let fee: StandInFee | undefined
      const partnerFeePercent = request.path.endsWith('/v3') && body.partnerFeePercent !== undefined ? body.partnerFeePercent : undefined
      if (partnerFeePercent !== undefined) {
        if (typeof partnerFeePercent !== 'number' || !(partnerFeePercent >= 0 && partnerFeePercent < 1))
          return fail(400, 4000, 'Invalid partnerFeePercent')
        if (
          typeof body.feeRecipient !== 'string' ||
          !/^0x[a-fA-F0-9]{40}$/.test(body.feeRecipient) ||
          getAddress(body.feeRecipient) !== body.feeRecipient
        )
          return fail(400, 4000, 'feeRecipient must be a checksummed address when partnerFeePercent is set')
        fee = { ppm: BigInt(Math.round(partnerFeePercent * 1_000_000)), takenFrom: 'tokenOut' }
      }
      const priced = await priceWithFee({ market, trade, fee })
      if (!priced) return odosStandIn.noRoute()
      let pathId: string | null = null
      if (body.userAddr !== undefined) {
        pathId = crypto.randomUUID().replaceAll('-', '')
        const path: Path = {
          userAddr: String(body.userAddr).toLowerCase(),
          tokenIn: trade.tokenIn,
          tokenOut: trade.tokenOut,
          amountIn: trade.amountIn.toString(),
          amountOut: priced.amountOut.toString(),
          gasUnits: priced.gasUnits.toString(),
          slippagePercent,
        }
        remember(settings, `odos:${pathId}`, path)
      }
      return {
        status: 200,
        body: {
          deprecated: null,
          traceId: crypto.randomUUID(),
          inTokens: [odosAddress(trade.tokenIn)],
          outTokens: [odosAddress(trade.tokenOut)],
          inAmounts: [trade.amountIn.toString()],
          outAmounts: [priced.amountOut.toString()],
          // Odos reports a float here.
          gasEstimate: Number(priced.gasUnits) + 0.4,
          dataGasEstimate: 0,
          gweiPerGas: 0.005,
          gasEstimateValue: 0,
          inValues: [0],
          outValues: [0],
          netOutValue: 0,
          priceImpact: 0,
          percentDiff: 0,
          partnerFeePercent: partnerFeePercent ?? 0,
          pathId,
          pathViz: null,
          blockNumber: 26843021,
        },
      }
    }
    if (request.path === '/sor/assemble') {
      const entry =
        typeof body.pathId === 'string'
          ? (settings.memory.get(`odos:${body.pathId}`) as { at: number; value: Path } | undefined)
          : undefined
      if (!entry || settings.now() - entry.at > PATH_LIFETIME_MS)
        return fail(400, 4100, 'Invalid assembly request: unknown or expired pathId')
      if (String(body.userAddr).toLowerCase() !== entry.value.userAddr) return fail(400, 4101, 'Invalid user address in assembly')
      const p = entry.value
      const native = p.tokenIn.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
      const minOut = (BigInt(p.amountOut) * BigInt(Math.floor((100 - p.slippagePercent) * 100))) / 10_000n
      return {
        status: 200,
        body: {
          deprecated: null,
          blockNumber: 26843021,
          gasEstimate: Number(p.gasUnits),
          gasEstimateValue: 0,
          inputTokens: [{ tokenAddress: odosAddress(p.tokenIn), amount: p.amountIn }],
          outputTokens: [{ tokenAddress: odosAddress(p.tokenOut), amount: p.amountOut }],
          netOutValue: 0,
          outValues: ['0'],
          transaction: {
            gas: Number(p.gasUnits) * 2,
            gasPrice: 5_000_000,
            value: native ? p.amountIn : '0',
            to: ROUTER,
            from: getAddress(p.userAddr),
            data: standInCalldata({
              tag: '0x83bd37f9',
              taker: getAddress(p.userAddr),
              tokenIn: p.tokenIn as `0x${string}`,
              tokenOut: p.tokenOut as `0x${string}`,
              amountIn: BigInt(p.amountIn),
              minOut,
            }),
            nonce: 0,
            chainId: settings.chainId,
          },
          simulation: null,
        },
      }
    }
    return fail(404, 1000, 'Not Found')
  },
  noRoute: () => fail(400, 2000, 'No viable path found'),
  serverError: () => fail(500, 2999, 'Error getting quote, please try again'),
  // Odos' 429 body is plain text (as semiotic-ai/odos-sdk's tests record it).
  rateLimited: (retryAfterSec) => ({ status: 429, body: 'Rate limit exceeded', headers: { 'retry-after': String(retryAfterSec) } }),
  tamper: (reply) => ({ ...reply, body: { ...(reply.body as object), inAmounts: ['1'] } }),
  wrongShape: () => ({ status: 200, body: { pathId: null, blockNumber: 1 } }),
}
