import { Type } from 'typebox'
import { type Address, encodeFunctionData, getAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import { batchTransaction } from '../../claims/batchTransaction.ts'
import { claimCeilings } from '../../claims/claimCeilings.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { feeLockerAbi } from '../../launchpad/feeLockerAbi.ts'
import { readClaimableFees } from '../../live/readClaimableFees.ts'
import { readLiveBlock } from '../../live/readLiveBlock.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { preparePlan } from '../../transactionPlans/preparePlan.ts'
import { requireChain } from '../requireChain.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'
import { requireDistinct } from '../../claims/requireDistinct.ts'

type Body = { chain_id: number; wallet: string; positions: { token: string }[] }

/**
 * `POST /claims/fees/prepare` (3 units per position, 1 to 10; scope `claims:write`;
 * `Idempotency-Key` accepted): the wallet's LP-fee positions claimed in one transaction
 * (`FeeLocker.claim(token, wallet)`, batched through Multicall3 when there are several), read
 * live at the latest block first: a token whose fees the wallet does not share is
 * `wallet_not_authorized`, a position with nothing accrued (fees still in the pool count) is
 * `nothing_to_claim`; then simulated.
 *
 * @example
 * registerFeeClaimsPrepareRoute(fastify, deps)
 * // POST /claims/fees/prepare now answers a simulated claim plan; nothing_to_claim or wallet_not_authorized otherwise
 */
export function registerFeeClaimsPrepareRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.post(
    '/claims/fees/prepare',
    {
      schema: {
        summary: 'Prepare fee claims (1 to 10 positions) as one unsigned transaction',
        operationId: 'prepareFeeClaims',
        body: Type.Ref('FeeClaimPrepareRequest'),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionPlanResponse'),
          description: 'The simulated claim plan',
          problems: [...KEYED_PROBLEMS, 403, 404, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'claims.fees.prepare',
          scope: 'claims:write',
          weight: { base: 3 },
          units: (request) => 3 * (request.body as Body).positions.length,
          idempotency: 'optional',
          validate: (request) => {
            const body = request.body as Body
            requireChain({ deps, chainId: body.chain_id })
            requireDistinct({ values: body.positions.map((p) => p.token.toLowerCase()), field: 'token' })
          },
          ceilings: claimCeilings,
        },
      },
    },
    async (request) => {
      const body = request.body as Body
      const chain = requireChain({ deps, chainId: body.chain_id })
      const wallet = getAddress(body.wallet)
      const tokens = body.positions.map((p) => getAddress(p.token))
      const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
      const claimable = await withDeadline({
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
        run: async () => {
          const lists = await Promise.all(
            tokens.map((token) =>
              chain.client.readContract({
                address: chain.launchpad.feeLocker,
                abi: feeLockerAbi,
                functionName: 'rewardRecipients',
                args: [token],
                blockNumber: block,
              }),
            ),
          )
          const mine = tokens.map((token, i) => {
            if (lists[i].length === 0)
              throw new GatewayProblem('not_found', {
                detail: `${token} is not a token launched here.`,
                resource: 'token',
                chainId: chain.chainId,
                tokenAddress: token,
              })
            if (!lists[i].some((r) => getAddress(r.recipient) === wallet))
              throw new GatewayProblem('wallet_not_authorized', {
                detail: `${wallet} is not a reward recipient of ${token}.`,
                chainId: chain.chainId,
                tokenAddress: token,
              })
            return { token, recipient: wallet as Address }
          })
          return readClaimableFees({
            client: chain.client,
            multicall3: chain.multicall3,
            feeLocker: chain.launchpad.feeLocker,
            positions: mine,
            blockNumber: block,
          })
        },
      })
      claimable.forEach((c, i) => {
        if (c.tokenAmount === 0n && c.pairedAmount === 0n)
          throw new GatewayProblem('nothing_to_claim', {
            detail: `The fee position of ${wallet} in ${tokens[i]} has nothing to claim now.`,
            chainId: chain.chainId,
            tokenAddress: tokens[i],
          })
      })
      const tx = batchTransaction({
        multicall3: chain.multicall3,
        calls: tokens.map((token) => ({
          to: chain.launchpad.feeLocker,
          data: encodeFunctionData({ abi: feeLockerAbi, functionName: 'claim', args: [token, wallet] }),
        })),
      })
      const plan = await preparePlan({
        deps,
        request,
        chain,
        kind: 'claim_fees',
        from: wallet,
        tx,
        blockNumber: block,
        summary: {
          recipient: wallet,
          positions: tokens.map((token, i) => ({
            token,
            claimable_token_raw: claimable[i].tokenAmount.toString(),
            claimable_paired_raw: claimable[i].pairedAmount.toString(),
          })),
        },
        abis: [feeLockerAbi],
        reverts: {
          NothingToClaim: { code: 'nothing_to_claim', detail: 'A position has nothing to claim now.' },
          UnknownToken: { code: 'not_found', detail: 'A token is not launched here.' },
        },
      })
      return { data: plan, meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: plan.as_of_block } }
    },
  )
}
