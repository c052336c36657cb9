import { Type } from 'typebox'
import { encodeFunctionData, getAddress, zeroAddress } from 'viem'
import type { FastifyInstance } from 'fastify'
import { batchTransaction } from '../../claims/batchTransaction.ts'
import { claimCeilings } from '../../claims/claimCeilings.ts'
import { requireDistinct } from '../../claims/requireDistinct.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { vestingVaultAbi } from '../../launchpad/vestingVaultAbi.ts'
import { readLiveBlock } from '../../live/readLiveBlock.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { preparePlan } from '../../transactionPlans/preparePlan.ts'
import { requireChain } from '../requireChain.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

type Body = { chain_id: number; wallet: string; positions: { position_id: number }[] }

/**
 * `POST /claims/vesting/prepare` (3 units per position, 1 to 10; scope `claims:write`;
 * `Idempotency-Key` accepted): the wallet's vesting positions claimed in one transaction
 * (`VestingVault.claim(id)`, batched through Multicall3 when there are several), read live at the
 * latest block first: a position that is not the wallet's is `wallet_not_authorized`, one that
 * does not exist `not_found`, one with nothing vested and unclaimed `nothing_to_claim`; then
 * simulated.
 *
 * @example
 * registerVestingClaimsPrepareRoute(fastify, deps)
 * // POST /claims/vesting/prepare now answers a simulated claim plan; nothing_to_claim, not_found or wallet_not_authorized otherwise
 */
export function registerVestingClaimsPrepareRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.post(
    '/claims/vesting/prepare',
    {
      schema: {
        summary: 'Prepare vesting claims (1 to 10 positions) as one unsigned transaction',
        operationId: 'prepareVestingClaims',
        body: Type.Ref('VestingClaimPrepareRequest'),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionPlanResponse'),
          description: 'The simulated claim plan',
          problems: [...KEYED_PROBLEMS, 403, 404, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'claims.vesting.prepare',
          scope: 'claims:write',
          weight: { base: 3 },
          units: (request) => 3 * (request.body as Body).positions.length,
          idempotency: 'optional',
          validate: (request) => {
            const body = request.body as Body
            requireChain({ deps, chainId: body.chain_id })
            requireDistinct({ values: body.positions.map((p) => p.position_id), field: 'position_id' })
          },
          ceilings: claimCeilings,
        },
      },
    },
    async (request) => {
      const body = request.body as Body
      const chain = requireChain({ deps, chainId: body.chain_id })
      const wallet = getAddress(body.wallet)
      const ids = body.positions.map((p) => BigInt(p.position_id))
      const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
      const positions = await withDeadline({
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
        run: () =>
          Promise.all(
            ids.map(async (id) => {
              const [token, beneficiary] = await chain.client.readContract({
                address: chain.launchpad.vestingVault,
                abi: vestingVaultAbi,
                functionName: 'positions',
                args: [id],
                blockNumber: block,
              })
              if (getAddress(token) === zeroAddress) return { id, token, beneficiary, claimable: 0n }
              const claimable = await chain.client.readContract({
                address: chain.launchpad.vestingVault,
                abi: vestingVaultAbi,
                functionName: 'claimable',
                args: [id],
                blockNumber: block,
              })
              return { id, token, beneficiary, claimable }
            }),
          ),
      })
      for (const p of positions) {
        if (getAddress(p.token) === zeroAddress)
          throw new GatewayProblem('not_found', {
            detail: `No vesting position ${p.id} on chain ${chain.chainId}.`,
            resource: 'vesting_position',
            chainId: chain.chainId,
          })
        if (getAddress(p.beneficiary) !== wallet)
          throw new GatewayProblem('wallet_not_authorized', {
            detail: `Vesting position ${p.id} belongs to another wallet.`,
            chainId: chain.chainId,
          })
        if (p.claimable === 0n)
          throw new GatewayProblem('nothing_to_claim', {
            detail: `Vesting position ${p.id} has nothing vested and unclaimed now.`,
            chainId: chain.chainId,
            tokenAddress: getAddress(p.token),
          })
      }
      const tx = batchTransaction({
        multicall3: chain.multicall3,
        calls: ids.map((id) => ({
          to: chain.launchpad.vestingVault,
          data: encodeFunctionData({ abi: vestingVaultAbi, functionName: 'claim', args: [id] }),
        })),
      })
      const plan = await preparePlan({
        deps,
        request,
        chain,
        kind: 'claim_vesting',
        from: wallet,
        tx,
        blockNumber: block,
        summary: {
          beneficiary: wallet,
          positions: positions.map((p) => ({
            position_id: Number(p.id),
            token: getAddress(p.token),
            claimable_raw: p.claimable.toString(),
          })),
        },
        abis: [vestingVaultAbi],
        reverts: {
          NothingToClaim: { code: 'nothing_to_claim', detail: 'A position has nothing to claim now.' },
          UnknownPosition: { code: 'not_found', detail: 'A vesting position does not exist.' },
        },
      })
      return { data: plan, meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: plan.as_of_block } }
    },
  )
}
