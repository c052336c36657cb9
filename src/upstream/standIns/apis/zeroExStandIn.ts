import { keccak256, toHex } from 'viem'
import type { StandInApi, StandInReply } from '../StandInApi.ts'
import { priceWithFee, type StandInFee } from '../priceWithFee.ts'
import { readStandInTrade } from '../readStandInTrade.ts'
import { standInCalldata } from '../standInCalldata.ts'

// 0x Swap API v2 as documented (fern/openapi.json): GET /swap/{allowance-holder|permit2}/{price|quote},
// `0x-api-key` and `0x-version: v2` required, 400 `{name, message, data: {zid, details}}` for bad
// input, 200 `{liquidityAvailable: false, zid}` when it cannot fill. The 401 and 429 bodies are not
// in its document: these are plausible ones, and the adapter relies only on their status.

const ALLOWANCE_HOLDER = '0x0000000000001ff3684f28c67538d4d072c22734'
const PERMIT2 = '0x000000000022d473030f116ddee9f6b43ac78ba3'
const SETTLER = '0x7f6cee965959295cc64d0e6c00d99d6532d8e86b'
const zid = () =>
  `0x${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(24, '0')}`
const invalid = (field: string, reason: string): StandInReply => ({
  status: 400,
  body: { name: 'INPUT_INVALID', message: 'Validation Failed', data: { zid: zid(), details: [{ field, reason }] } },
})

/** The 0x Swap API v2 stand-in. */
export const zeroExStandIn: StandInApi = {
  id: '0x',
  answer: async (request, market, settings) => {
    const m = /^\/swap\/(allowance-holder|permit2)\/(price|quote)$/.exec(request.path)
    if (request.method !== 'GET' || !m) return { status: 404, body: { name: 'NOT_FOUND', message: 'Not Found' } }
    const [, flow, endpoint] = m
    const key = request.headers['0x-api-key']
    if (!key || (settings.apiKey !== undefined && key !== settings.apiKey)) return { status: 401, body: { message: 'Invalid API key' } }
    if (request.headers['0x-version'] !== 'v2') return invalid('0x-version', 'must be v2')
    const q = request.query
    if (q.chainId !== String(settings.chainId)) return invalid('chainId', `chain ${q.chainId ?? '(missing)'} is not supported here`)
    if (q.buyAmount !== undefined) return invalid('buyAmount', 'exact-output quotes are not simulated by this stand-in')
    const { trade, problem = '' } = readStandInTrade({
      tokenIn: q.sellToken,
      tokenOut: q.buyToken,
      amountIn: q.sellAmount,
      fields: ['sellToken', 'buyToken', 'sellAmount'],
    })
    if (!trade) return invalid(problem.split(':')[0], problem.split(': ')[1])
    if (endpoint === 'quote' && !/^0x[a-fA-F0-9]{40}$/.test(q.taker ?? '')) return invalid('taker', 'required for /quote')
    const slippageBps = q.slippageBps === undefined ? 100 : Number(q.slippageBps)
    if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000)
      return invalid('slippageBps', 'must be an integer in 0..10000')
    // The integrator fee (one recipient simulated): swapFeeBps of swapFeeToken, the buy token by default.
    let fee: StandInFee | undefined
    let feeToken: string | undefined
    if (q.swapFeeBps !== undefined || q.swapFeeRecipient !== undefined) {
      if (q.swapFeeBps === undefined || q.swapFeeRecipient === undefined)
        return invalid(
          q.swapFeeBps === undefined ? 'swapFeeBps' : 'swapFeeRecipient',
          'swapFeeRecipient and swapFeeBps must be given together',
        )
      if (!/^0x[a-fA-F0-9]{40}$/.test(q.swapFeeRecipient)) return invalid('swapFeeRecipient', 'must be an address')
      if (!/^[0-9]+$/.test(q.swapFeeBps) || Number(q.swapFeeBps) > 1000)
        return invalid('swapFeeBps', 'must be an integer in 0..1000 (the default limit)')
      feeToken = (q.swapFeeToken ?? q.buyToken).toLowerCase()
      if (feeToken !== q.buyToken.toLowerCase() && feeToken !== q.sellToken.toLowerCase())
        return invalid('swapFeeToken', 'must be the buyToken or the sellToken')
      fee = { ppm: BigInt(q.swapFeeBps) * 100n, takenFrom: feeToken === q.buyToken.toLowerCase() ? 'tokenOut' : 'tokenIn' }
    }
    const priced = await priceWithFee({ market, trade, fee })
    if (!priced) return zeroExStandIn.noRoute()
    const integratorFee = fee ? { amount: priced.feeAmount.toString(), token: feeToken, type: 'volume' } : null
    const gasPrice = q.gasPrice ?? '5000000'
    const native = trade.tokenIn.toLowerCase() === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    const minBuy = (priced.amountOut * BigInt(10_000 - slippageBps)) / 10_000n
    const body: Record<string, unknown> = {
      allowanceTarget: native ? null : flow === 'permit2' ? PERMIT2 : ALLOWANCE_HOLDER,
      blockNumber: '26843021',
      buyAmount: priced.amountOut.toString(),
      buyToken: trade.tokenOut.toLowerCase(),
      fees: { integratorFee, integratorFees: integratorFee && [integratorFee], zeroExFee: null, gasFee: null },
      issues: {
        allowance: native ? null : { actual: '0', spender: flow === 'permit2' ? PERMIT2 : ALLOWANCE_HOLDER },
        balance: null,
        simulationIncomplete: false,
        invalidSourcesPassed: [],
      },
      liquidityAvailable: true,
      minBuyAmount: minBuy.toString(),
      mode: 'exact-in',
      route: {
        fills: [{ from: trade.tokenIn.toLowerCase(), to: trade.tokenOut.toLowerCase(), source: 'Simulated', proportionBps: '10000' }],
        tokens: [],
      },
      sellAmount: trade.amountIn.toString(),
      sellToken: trade.tokenIn.toLowerCase(),
      tokenMetadata: { buyToken: { buyTaxBps: '0', sellTaxBps: '0' }, sellToken: { buyTaxBps: '0', sellTaxBps: '0' } },
      totalNetworkFee: (priced.gasUnits * BigInt(gasPrice)).toString(),
      zid: zid(),
    }
    if (endpoint === 'price') return { status: 200, body: { ...body, gas: priced.gasUnits.toString(), gasPrice } }
    const taker = q.taker as `0x${string}`
    const data = standInCalldata({
      tag: '0x1fff991f',
      taker,
      tokenIn: trade.tokenIn,
      tokenOut: trade.tokenOut,
      amountIn: trade.amountIn,
      minOut: minBuy,
    })
    body.transaction = {
      to: flow === 'permit2' ? SETTLER : ALLOWANCE_HOLDER,
      data,
      gas: priced.gasUnits.toString(),
      gasPrice,
      value: native ? trade.amountIn.toString() : '0',
    }
    if (flow === 'permit2') {
      const message = {
        permitted: { token: trade.tokenIn.toLowerCase(), amount: trade.amountIn.toString() },
        spender: SETTLER,
        nonce: String(settings.now()),
        deadline: String(Math.floor(settings.now() / 1000) + 120),
      }
      body.permit2 = {
        type: 'Permit2',
        hash: keccak256(toHex(JSON.stringify(message))),
        eip712: {
          types: {
            PermitTransferFrom: [
              { name: 'permitted', type: 'TokenPermissions' },
              { name: 'spender', type: 'address' },
              { name: 'nonce', type: 'uint256' },
              { name: 'deadline', type: 'uint256' },
            ],
            TokenPermissions: [
              { name: 'token', type: 'address' },
              { name: 'amount', type: 'uint256' },
            ],
            EIP712Domain: [
              { name: 'name', type: 'string' },
              { name: 'chainId', type: 'uint256' },
              { name: 'verifyingContract', type: 'address' },
            ],
          },
          domain: { name: 'Permit2', chainId: settings.chainId, verifyingContract: PERMIT2 },
          message,
          primaryType: 'PermitTransferFrom',
        },
      }
    }
    return { status: 200, body }
  },
  noRoute: () => ({ status: 200, body: { liquidityAvailable: false, zid: zid() } }),
  serverError: () => ({ status: 500, body: { name: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error', data: { zid: zid() } } }),
  rateLimited: (retryAfterSec) => ({
    status: 429,
    body: { message: 'Too Many Requests' },
    headers: { 'retry-after': String(retryAfterSec) },
  }),
  tamper: (reply) => ({ ...reply, body: { ...(reply.body as object), sellAmount: '1' } }),
  wrongShape: () => ({ status: 200, body: { liquidityAvailable: true, zid: zid() } }),
}
