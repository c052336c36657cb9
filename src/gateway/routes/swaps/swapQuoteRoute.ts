import { Type } from 'typebox'
import { type Address, getAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { ceilings } from '../../limits/ceilings.ts'
import { perMinute } from '../../limits/preparationCeilings.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { newPlanId } from '../../transactionPlans/newPlanId.ts'
import { parseRawAmount } from '../../swaps/parseRawAmount.ts'
import { offerSwapPermit } from '../../swaps/offerSwapPermit.ts'
import { quoteSwap } from '../../swaps/quoteSwap.ts'
import { requireSwapChain } from '../../swaps/requireSwapChain.ts'
import type { SwapQuote } from '../../swaps/createSwapQuoteStore.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

/** A quote is valid this long: `POST /swaps/prepare` after it is `stale_quote`. */
export const SWAP_QUOTE_TTL_MS = 30_000
const DEFAULT_SLIPPAGE_BPS = 50
const DEFAULT_MAX_PRICE_IMPACT_BPS = 1_500
/** The reference trade of the price impact is this many times smaller. */
const IMPACT_REFERENCE_DIVISOR = 1_000n

type Body = {
  chain_id: number
  wallet: string
  token_in: string
  token_out: string
  amount_in: string
  slippage_bps?: number
  max_price_impact_bps?: number
}

/**
 * `POST /swaps/quote` (5 units, scope `swap:write`; at most 60 per wallet per minute across all
 * keys): a quote from the swap service's own solver, in the same process, with the limits a
 * prepared swap is held to: `min_amount_out` (slippage), `price_impact_bps` (refused above
 * `max_price_impact_bps`: `quote_unavailable`) and `expires_at` (30 s), and the EIP-2612 permit
 * the wallet may sign instead of approving the router (`offerSwapPermit`). Never cached (spec §8.3).
 *
 * @example
 * registerSwapQuoteRoute(fastify, deps)
 * // POST /swaps/quote now answers a quote with min_amount_out, price_impact_bps and expires_at (30 s on)
 */
export function registerSwapQuoteRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.post(
    '/swaps/quote',
    {
      schema: {
        summary: 'Quote a swap (buy or sell a launched token, or any token the swap market routes)',
        operationId: 'quoteSwap',
        body: Type.Ref('SwapQuoteRequest'),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('SwapQuoteResponse'),
          description: 'The quote and its reviewed limits',
          problems: [...KEYED_PROBLEMS, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'swaps.quote',
          scope: 'swap:write',
          weight: { base: 5 },
          validate: (request) => void requireSwapChain({ deps, chainId: (request.body as Body).chain_id }),
          ceilings: (request) => [
            perMinute({
              name: 'swap_quotes_per_wallet',
              key: `swapq:${(request.body as Body).wallet.toLowerCase()}`,
              limit: ceilings.swapQuotes.perWalletPerMinute,
            }),
          ],
        },
      },
    },
    async (request) => {
      const body = request.body as Body
      const chain = requireSwapChain({ deps, chainId: body.chain_id })
      const amountIn = parseRawAmount({ value: body.amount_in, field: 'amount_in' })
      const slippageBps = body.slippage_bps ?? DEFAULT_SLIPPAGE_BPS
      const maxImpact = body.max_price_impact_bps ?? DEFAULT_MAX_PRICE_IMPACT_BPS
      const [plan, reference, permit] = await Promise.all([
        quoteSwap({ chain, tokenIn: body.token_in as Address, tokenOut: body.token_out as Address, amountIn, slippageBps }),
        amountIn / IMPACT_REFERENCE_DIVISOR > 0n
          ? quoteSwap({
              chain,
              tokenIn: body.token_in as Address,
              tokenOut: body.token_out as Address,
              amountIn: amountIn / IMPACT_REFERENCE_DIVISOR,
              slippageBps,
            }).catch(() => undefined)
          : Promise.resolve(undefined),
        offerSwapPermit({
          chain,
          wallet: getAddress(body.wallet),
          token: getAddress(body.token_in),
          amount: amountIn,
          ttlMs: SWAP_QUOTE_TTL_MS,
          timeoutMs: deps.liveReadTimeoutMs,
        }),
      ])
      const out = BigInt(plan.expectedAmountOut)
      const refIn = amountIn / IMPACT_REFERENCE_DIVISOR
      const refOut = reference ? BigInt(reference.expectedAmountOut) : 0n
      // 1 - (out / in) / (refOut / refIn), in bps, in integers: 10^4 - 10^4 * out * refIn / (in * refOut).
      const priceImpactBps = refOut > 0n ? Math.max(0, Number(10_000n - (10_000n * out * refIn) / (amountIn * refOut))) : null
      if (priceImpactBps !== null && priceImpactBps > maxImpact) {
        throw new GatewayProblem('quote_unavailable', {
          detail: `This trade would move the price by ${priceImpactBps} bps, above max_price_impact_bps (${maxImpact}); trade less or raise the limit.`,
          chainId: chain.chainId,
        })
      }
      const createdAt = deps.now()
      const expiresAt = createdAt + SWAP_QUOTE_TTL_MS
      const quote: SwapQuote = {
        quote_id: `quote_${newPlanId(createdAt).slice('plan_'.length)}`,
        chain_id: chain.chainId,
        wallet: getAddress(body.wallet),
        token_in: getAddress(body.token_in),
        token_out: getAddress(body.token_out),
        amount_in: amountIn.toString(),
        amount_out: plan.expectedAmountOut,
        min_amount_out: plan.minAmountOut,
        slippage_bps: slippageBps,
        price_impact_bps: priceImpactBps,
        route: plan.routes.map((r) => ({
          amount_in: r.amountIn,
          pools: r.legs.map((l) => l.poolId),
          dexes: r.legs.map((l) => String(l.dex)),
        })),
        gas_units: plan.gasEstimate.gasUnits,
        as_of_block: plan.blockNumber,
        expires_at: new Date(expiresAt).toISOString(),
        permit,
      }
      await deps.swapQuotes.save({ quote, routePlan: plan, keyPrefix: request.gw.key!.prefix, createdAt, expiresAt })
      return { data: quote, meta: { generated_at: new Date(createdAt).toISOString(), as_of_block: plan.blockNumber } }
    },
  )
}
