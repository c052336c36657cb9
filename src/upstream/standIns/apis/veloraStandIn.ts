import { keccak256, toHex } from 'viem'
import { extractRawJsonMember } from '../../adapters/extractRawJsonMember.ts'
import type { StandInApi, StandInReply } from '../StandInApi.ts'
import { priceWithFee, type StandInFee } from '../priceWithFee.ts'
import { readStandInTrade } from '../readStandInTrade.ts'
import { remember } from '../remember.ts'
import { standInCalldata } from '../standInCalldata.ts'

// Velora (ParaSwap) Market API v6.2 as documented: GET /prices (srcDecimals and destDecimals
// required with addresses) then POST /transactions/{network} with the priceRoute unmodified (its
// `hmac` covers it: this stand-in compares the bytes); errors `{error: "…"}`.

const AUGUSTUS = '0x6a000f20005980200259b80c5102003040001068'
const fail = (status: number, error: string): StandInReply => ({ status, body: { error } })

/** The Velora Market API stand-in. */
export const veloraStandIn: StandInApi = {
  id: 'velora',
  answer: async (request, market, settings) => {
    if (request.path === '/prices' && request.method === 'GET') {
      const q = request.query
      if ((q.network ?? '1') !== String(settings.chainId)) return fail(400, 'Invalid network')
      if (q.side !== undefined && q.side !== 'SELL') return fail(400, 'Only SELL is simulated by this stand-in')
      if (!/^[0-9]+$/.test(q.srcDecimals ?? '')) return fail(400, 'Invalid srcDecimals')
      if (!/^[0-9]+$/.test(q.destDecimals ?? '')) return fail(400, 'Invalid destDecimals')
      if (
        q.srcToken?.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' &&
        q.srcToken !== '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
      )
        return fail(400, 'Invalid srcToken')
      const { trade, problem = '' } = readStandInTrade({
        tokenIn: q.srcToken,
        tokenOut: q.destToken,
        amountIn: q.amount,
        fields: ['srcToken', 'destToken', 'amount'],
      })
      if (!trade) return fail(400, `Invalid ${problem}`)
      // The partner fee: `partnerFeeBps` of the destination token for `partnerAddress` (at most 200).
      let fee: StandInFee | undefined
      if (q.partnerFeeBps !== undefined) {
        if (!/^[0-9]+$/.test(q.partnerFeeBps) || Number(q.partnerFeeBps) > 200) return fail(400, 'Invalid partnerFeeBps: at most 200')
        if (!/^0x[a-fA-F0-9]{40}$/.test(q.partnerAddress ?? '')) return fail(400, 'Invalid partnerAddress')
        fee = { ppm: BigInt(q.partnerFeeBps) * 100n, takenFrom: 'tokenOut' }
      }
      const priced = await priceWithFee({ market, trade, fee })
      if (!priced) return veloraStandIn.noRoute()
      const route = {
        blockNumber: 26843021,
        network: settings.chainId,
        srcToken: trade.tokenIn.toLowerCase(),
        srcDecimals: Number(q.srcDecimals),
        srcAmount: trade.amountIn.toString(),
        destToken: trade.tokenOut.toLowerCase(),
        destDecimals: Number(q.destDecimals),
        destAmount: priced.amountOut.toString(),
        bestRoute: [
          {
            percent: 100,
            swaps: [
              {
                srcToken: trade.tokenIn.toLowerCase(),
                srcDecimals: Number(q.srcDecimals),
                destToken: trade.tokenOut.toLowerCase(),
                destDecimals: Number(q.destDecimals),
                swapExchanges: [
                  {
                    exchange: 'Simulated',
                    srcAmount: trade.amountIn.toString(),
                    destAmount: priced.amountOut.toString(),
                    percent: 100,
                    poolAddresses: [],
                    data: {},
                  },
                ],
              },
            ],
          },
        ],
        gasCostUSD: '0',
        gasCost: priced.gasUnits.toString(),
        side: 'SELL',
        version: '6.2',
        contractAddress: AUGUSTUS,
        tokenTransferProxy: AUGUSTUS,
        contractMethod: 'swapExactAmountIn',
        // In percent here (its unit is not documented; the adapter never reads it).
        partnerFee: fee ? Number(q.partnerFeeBps) / 100 : 0,
        srcUSD: '0',
        destUSD: '0',
        partner: 'anon',
        maxImpactReached: false,
        hmac: '',
      }
      route.hmac = keccak256(toHex(JSON.stringify(route))).slice(2, 42)
      const text = JSON.stringify({ priceRoute: route })
      remember(settings, `velora:${route.hmac}`, JSON.stringify(route))
      remember(settings, `velora-fee:${route.hmac}`, fee ? `${q.partnerFeeBps}:${q.partnerAddress!.toLowerCase()}` : '')
      return { status: 200, body: JSON.parse(text), raw: text }
    }
    const m = /^\/transactions\/([0-9]+)$/.exec(request.path)
    if (m && request.method === 'POST') {
      if (m[1] !== String(settings.chainId)) return fail(400, 'Invalid network')
      const body = request.json as Record<string, unknown> | undefined
      const raw = extractRawJsonMember(request.text, ['priceRoute'])
      const route = body?.priceRoute as
        { hmac?: unknown; srcToken: string; destToken: string; srcAmount: string; destAmount: string } | undefined
      if (!body || raw === undefined || !route || typeof route.hmac !== 'string') return fail(400, 'Missing priceRoute')
      if ((settings.memory.get(`velora:${route.hmac}`) as { value?: string } | undefined)?.value !== raw)
        return fail(400, 'Invalid priceRoute: it was modified (hmac mismatch)')
      if (!/^0x[a-fA-F0-9]{40}$/.test(String(body.userAddress))) return fail(400, 'Invalid userAddress')
      // This stand-in's own strictness: the transaction must charge the fee the route was priced with.
      const pricedFee = (settings.memory.get(`velora-fee:${route.hmac}`) as { value?: string } | undefined)?.value ?? ''
      const askedFee = body.partnerFeeBps === undefined ? '' : `${String(body.partnerFeeBps)}:${String(body.partnerAddress).toLowerCase()}`
      if (askedFee !== pricedFee) return fail(400, 'partnerFeeBps and partnerAddress must be those priceRoute was priced with')
      if (String(body.srcAmount) !== route.srcAmount) return fail(400, 'srcAmount does not match priceRoute.srcAmount')
      if (body.slippage === undefined && body.destAmount === undefined) return fail(400, 'Missing slippage or destAmount')
      const slippage = Number(body.slippage ?? 0)
      const native = route.srcToken === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
      const minOut =
        body.destAmount !== undefined ? BigInt(String(body.destAmount)) : (BigInt(route.destAmount) * BigInt(10_000 - slippage)) / 10_000n
      const answer: Record<string, unknown> = {
        from: String(body.userAddress),
        to: AUGUSTUS,
        value: native ? route.srcAmount : '0',
        data: standInCalldata({
          tag: '0xe3ead59e',
          taker: body.userAddress as `0x${string}`,
          tokenIn: route.srcToken as `0x${string}`,
          tokenOut: route.destToken as `0x${string}`,
          amountIn: BigInt(route.srcAmount),
          minOut,
        }),
        gasPrice: '5000000',
        chainId: settings.chainId,
      }
      if (request.query.ignoreGasEstimate !== 'true') answer.gas = '300000'
      return { status: 200, body: answer }
    }
    return fail(404, 'Not Found')
  },
  noRoute: () => fail(400, 'No routes found with enough liquidity'),
  serverError: () => fail(500, 'Internal Error'),
  rateLimited: (retryAfterSec) => ({ ...fail(429, 'Too many requests'), headers: { 'retry-after': String(retryAfterSec) } }),
  tamper: (reply) => {
    const body = reply.body as { priceRoute?: Record<string, unknown> }
    return { status: reply.status, body: body.priceRoute ? { priceRoute: { ...body.priceRoute, srcAmount: '1' } } : body }
  },
  wrongShape: () => ({ status: 200, body: { priceRoute: { destAmount: '1' } } }),
}
