import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { chainConfigDigest } from '../../transactionPlans/chainConfigDigest.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'

/**
 * `GET /plans/{id}`: a transaction plan a prepare route returned, while it is fresh (1 unit,
 * scope `transactions:read`). Only the key that prepared it sees it (another key: `not_found`, as
 * for an id never issued). After `expires_at`, or once its chain's configuration changed (the
 * launchpad or router it calls), it is `stale_plan` (409): never sign it; prepare again.
 *
 * @example
 * registerPlanRoute(fastify, deps)
 * // GET /plans/:id now answers the key's own plan; not_found for another key's, stale_plan (409) once expired
 */
export function registerPlanRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/plans/:id',
    {
      schema: {
        summary: 'A transaction plan, while it is fresh',
        operationId: 'getTransactionPlan',
        params: Type.Object(
          { id: Type.String({ maxLength: 64, description: 'a plan_id from a prepare route' }) },
          { additionalProperties: false },
        ),
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionPlanResponse'),
          description: 'The plan as it was prepared',
          problems: [...KEYED_PROBLEMS, 404, 409],
        }),
      },
      config: { gateway: { operation: 'plans.get', scope: 'transactions:read', weight: { base: 1 } } },
    },
    async (request) => {
      const id = (request.params as { id: string }).id
      const stored = await deps.plans.get(id)
      if (!stored || stored.keyPrefix !== request.gw.key!.prefix)
        throw new GatewayProblem('not_found', {
          detail: `No transaction plan ${id.slice(0, 64)} was prepared with this key.`,
          resource: 'plan',
        })
      const chain = deps.chains.get(stored.plan.chain_id)
      if (stored.expiresAt <= deps.now())
        throw new GatewayProblem('stale_plan', {
          detail: `The plan expired at ${stored.plan.expires_at}; do not sign it. Prepare again.`,
          chainId: stored.plan.chain_id,
        })
      if (!chain || chainConfigDigest(chain) !== stored.configDigest)
        throw new GatewayProblem('stale_plan', {
          detail: "The chain's configuration changed since the plan was prepared; do not sign it. Prepare again.",
          chainId: stored.plan.chain_id,
        })
      return { data: stored.plan, meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: stored.plan.as_of_block } }
    },
  )
}
