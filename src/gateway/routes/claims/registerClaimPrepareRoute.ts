import { Type } from 'typebox'
import { type Address, getAddress, type Hex } from 'viem'
import type { FastifyInstance } from 'fastify'
import type { GatewayChain } from '../../GatewayChain.ts'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { readLiveBlock } from '../../live/readLiveBlock.ts'
import { requireChain } from '../requireChain.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'
import { preparePlan, type PreparePlanParameters } from '../../transactionPlans/preparePlan.ts'
import { batchTransaction } from '../../claims/batchTransaction.ts'
import { claimCeilings } from '../../claims/claimCeilings.ts'
import { requireDistinct } from '../../claims/requireDistinct.ts'

/** What every claim prepare body has; `positions` is the kind's own. */
type ClaimBody<P> = { chain_id: number; wallet: string; positions: P[] }

/** One kind of claim prepare route: what differs between fee and vesting claims. */
export type ClaimPrepareRoute<P> = {
  path: string
  summary: string
  operationId: string
  /** The `$id` of its body schema. */
  body: string
  operation: string
  kind: 'claim_fees' | 'claim_vesting'
  /** The positions' identity, each at most once (`invalid_parameter` on the field otherwise). */
  identity: { field: string; of: (position: P) => string | number }
  /**
   * Reads the positions live at `block`, refuses what cannot be claimed (`not_found`,
   * `wallet_not_authorized`, `nothing_to_claim`) and answers each position's claim call and the
   * plan's summary.
   */
  read: (input: { positions: P[]; chain: GatewayChain; wallet: Address; block: bigint }) => Promise<{
    calls: { to: Address; data: Hex }[]
    summary: Record<string, unknown>
  }>
  abis: PreparePlanParameters['abis']
  reverts: PreparePlanParameters['reverts']
}

/**
 * Registers a claim prepare route (spec §8: 3 units per position, 1 to 10; scope `claims:write`;
 * `Idempotency-Key` accepted; the claim-batch ceilings): the positions read live at the latest
 * block by the kind's `read`, their claims in one transaction (`batchTransaction`: the call
 * itself, or Multicall3 for several), simulated there.
 *
 * @example
 * registerClaimPrepareRoute(fastify, deps, { path: '/claims/fees/prepare', ... })
 * // POST /claims/fees/prepare with 2 positions → 200 { data: a transaction plan (one Multicall3 call claiming both, simulated), meta: { generated_at, as_of_block } },
 * //   charged 6 units (3 a position)
 */
export function registerClaimPrepareRoute<P>(fastify: FastifyInstance, deps: GatewayDependencies, route: ClaimPrepareRoute<P>): void {
  fastify.post(
    route.path,
    {
      schema: {
        summary: route.summary,
        operationId: route.operationId,
        body: Type.Ref(route.body),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionPlanResponse'),
          description: 'The simulated claim plan',
          problems: [...KEYED_PROBLEMS, 403, 404, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: route.operation,
          scope: 'claims:write',
          weight: { base: 3 },
          units: (request) => 3 * (request.body as ClaimBody<P>).positions.length,
          idempotency: 'optional',
          validate: (request) => {
            const body = request.body as ClaimBody<P>
            requireChain({ deps, chainId: body.chain_id })
            requireDistinct({ values: body.positions.map(route.identity.of), field: route.identity.field })
          },
          ceilings: claimCeilings,
        },
      },
    },
    async (request) => {
      const body = request.body as ClaimBody<P>
      const chain = requireChain({ deps, chainId: body.chain_id })
      const wallet = getAddress(body.wallet)
      const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
      const { calls, summary } = await route.read({ positions: body.positions, chain, wallet, block })
      const plan = await preparePlan({
        deps,
        request,
        chain,
        kind: route.kind,
        from: wallet,
        tx: batchTransaction({ multicall3: chain.multicall3, calls }),
        blockNumber: block,
        summary,
        abis: route.abis,
        reverts: route.reverts,
      })
      return { data: plan, meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: plan.as_of_block } }
    },
  )
}
