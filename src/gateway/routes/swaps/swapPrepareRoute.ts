import { Type } from 'typebox'
import { type Address, getAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import { buildSwapTransaction } from '../../../http/buildSwapTransaction.ts'
import { isNativeSentinel } from '../../../quote/isNativeSentinel.ts'
import { swapRouterAbi } from '../../../router/swapRouterAbi.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { readLiveBlock } from '../../live/readLiveBlock.ts'
import { ceilings } from '../../limits/ceilings.ts'
import { perMinute, preparationCeilings } from '../../limits/preparationCeilings.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { checkSwapPermit, type SwapPermitInput } from '../../swaps/checkSwapPermit.ts'
import { readFunding } from '../../swaps/readFunding.ts'
import { readTokenPermit } from '../../swaps/readTokenPermit.ts'
import { requireSwapChain } from '../../swaps/requireSwapChain.ts'
import { preparePlan } from '../../transactionPlans/preparePlan.ts'
import type { RevertMapping } from '../../transactionPlans/simulateTransaction.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

type Body = { quote_id: string; wallet: string; permit?: SwapPermitInput }

/** The router's reverts a swap plan's simulation can meet, in the spec's codes. */
const SWAP_REVERTS: RevertMapping = {
  InsufficientOutput: {
    code: 'stale_quote',
    detail: "The pools moved: the swap would pay less than the quote's min_amount_out. Get a new quote.",
  },
  LegMinOut: { code: 'stale_quote', detail: 'The pools moved: a leg would pay less than the quote allowed. Get a new quote.' },
  DeadlineExpired: { code: 'stale_quote', detail: 'The quote expired. Get a new quote.' },
  PartialFill: { code: 'stale_quote', detail: 'A pool can no longer take the quoted amount. Get a new quote.' },
  PermitFailed: { code: 'invalid_permit', detail: 'The token permit no longer matches. Get a fresh quote, sign, prepare again.' },
  TransferFailed: { code: 'insufficient_balance', detail: 'The wallet cannot pay the input amount.' },
  Unfunded: { code: 'insufficient_balance', detail: 'The wallet cannot pay the input amount.' },
}

/**
 * `POST /swaps/prepare` (5 units, scope `swap:write`; at most 30 per wallet per minute across all
 * keys, and the shared preparation ceilings; `Idempotency-Key` accepted): the quote's route as an
 * unsigned router transaction for the quote's wallet, checked against the wallet at the latest
 * block — its balance (`insufficient_balance` with `asset`, `actual_raw`, `required_raw`) and its
 * allowance to the router (`approval_not_confirmed`) — then simulated there (a pool that moved
 * past the quote's limits: `stale_quote`). An expired quote is `stale_quote`; a quote of another
 * key `not_found`; of another wallet `wallet_not_authorized`. The transaction's deadline is the
 * quote's expiry in chain time.
 *
 * With `permit` (the quote's EIP-2612 typed data, signed), no approval is needed: the plan calls
 * the router's `swapExactInWithPermit`. The permit is checked first against the token at the
 * latest block (`checkSwapPermit`: `invalid_permit` when expired, short of `amount_in`, or not the
 * wallet's signature for this router, token, chain and current nonce), the plan's deadline is at
 * most the permit's, and a permit the simulation finds spent is `invalid_permit` too.
 *
 * @example
 * registerSwapPrepareRoute(fastify, deps)
 * // POST /swaps/prepare now answers the transaction plan for a quote; stale_quote once it expired
 */
export function registerSwapPrepareRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.post(
    '/swaps/prepare',
    {
      schema: {
        summary: 'Prepare a quoted swap as an unsigned transaction',
        operationId: 'prepareSwap',
        body: Type.Ref('SwapPrepareRequest'),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionPlanResponse'),
          description: 'The simulated plan',
          problems: [...KEYED_PROBLEMS, 403, 404, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'swaps.prepare',
          scope: 'swap:write',
          weight: { base: 5 },
          idempotency: 'optional',
          ceilings: (request) => [
            perMinute({
              name: 'swap_preparations_per_wallet',
              key: `swapp:${(request.body as Body).wallet.toLowerCase()}`,
              limit: ceilings.swapPreparations.perWalletPerMinute,
            }),
            ...preparationCeilings(request),
          ],
        },
      },
    },
    async (request) => {
      const body = request.body as Body
      const stored = await deps.swapQuotes.get(body.quote_id)
      if (!stored || stored.keyPrefix !== request.gw.key!.prefix)
        throw new GatewayProblem('not_found', {
          detail: `No quote ${body.quote_id.slice(0, 64)} was issued to this key.`,
          resource: 'quote',
        })
      const { quote, routePlan } = stored
      if (getAddress(body.wallet) !== getAddress(quote.wallet))
        throw new GatewayProblem('wallet_not_authorized', { detail: 'The quote was made for another wallet; quote for this one.' })
      if (stored.expiresAt <= deps.now())
        throw new GatewayProblem('stale_quote', { detail: `The quote expired at ${quote.expires_at}. Get a new quote.` })
      const chain = requireSwapChain({ deps, chainId: quote.chain_id })
      const wallet = getAddress(quote.wallet)
      const tokenIn = getAddress(quote.token_in) as Address
      const amountIn = BigInt(quote.amount_in)
      if (body.permit && isNativeSentinel(tokenIn))
        throw new GatewayProblem('incompatible_parameters', {
          detail: 'A swap of the native asset pulls no token, so it takes no permit.',
          invalidParameters: [{ name: 'permit', in: 'body', reason: 'not with a native-asset input' }],
        })
      const blockNumber = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
      const live = { chain, blockNumber, timeoutMs: deps.liveReadTimeoutMs }
      const [funding, tokenPermit] = await Promise.all([
        readFunding({ ...live, wallet, token: tokenIn, spender: chain.swaps.router }),
        body.permit ? readTokenPermit({ ...live, token: tokenIn, owner: wallet }) : undefined,
      ])
      if (funding.balance < amountIn) {
        throw new GatewayProblem('insufficient_balance', {
          detail: `The wallet holds ${funding.balance} of ${tokenIn}; the swap needs ${amountIn}.`,
          asset: tokenIn,
          actualRaw: funding.balance.toString(),
          requiredRaw: amountIn.toString(),
          chainId: chain.chainId,
        })
      }
      const permit =
        body.permit &&
        (await checkSwapPermit({
          permit: body.permit,
          tokenPermit,
          token: tokenIn,
          owner: wallet,
          router: chain.swaps.router,
          amountIn,
          blockTimestamp: funding.timestamp,
        }))
      if (!permit && funding.allowance < amountIn) {
        throw new GatewayProblem('approval_not_confirmed', {
          detail: `Approve the router ${chain.swaps.router} to spend at least ${amountIn} of ${tokenIn}, wait for it to be mined, then prepare again (or send the quote's permit, signed).`,
          asset: tokenIn,
          chainId: chain.chainId,
        })
      }
      const secondsLeft = BigInt(Math.max(1, Math.ceil((stored.expiresAt - deps.now()) / 1000)))
      const quoteDeadline = funding.timestamp + secondsLeft
      const tx = buildSwapTransaction({
        plan: routePlan,
        router: chain.swaps.router,
        weth: chain.wrappedNative,
        user: wallet,
        permit,
        // Never mined after the permit's own deadline: the token would refuse it then.
        deadlineSec: permit && BigInt(permit.deadline) < quoteDeadline ? BigInt(permit.deadline) : quoteDeadline,
      })
      const plan = await preparePlan({
        deps,
        request,
        chain,
        kind: 'swap',
        from: wallet,
        tx,
        blockNumber,
        summary: {
          quote_id: quote.quote_id,
          token_in: quote.token_in,
          token_out: quote.token_out,
          amount_in: quote.amount_in,
          amount_out: quote.amount_out,
          min_amount_out: quote.min_amount_out,
          recipient: wallet,
          ...(permit && { permit: { value: permit.value, deadline: permit.deadline, nonce: tokenPermit!.nonce.toString() } }),
        },
        requires:
          isNativeSentinel(tokenIn) || permit
            ? []
            : [{ kind: 'approval', token: tokenIn, spender: getAddress(chain.swaps.router), amount: amountIn.toString() }],
        abis: [swapRouterAbi],
        reverts: SWAP_REVERTS,
        expiresAt: stored.expiresAt,
      })
      return { data: plan, meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: plan.as_of_block } }
    },
  )
}
