import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'

/**
 * `POST /claims/prepare`: retired (spec §9.1), not deprecated: always `not_found`, with the
 * focused route for the body's `kind` as `suggested_endpoint` (`/claims/fees/prepare` or
 * `/claims/vesting/prepare`; both when `kind` is missing or unknown). A key is still required
 * (every route but `/health` needs one); it costs no units, since nothing is served.
 *
 * @example
 * registerRetiredClaimsPrepareRoute(fastify)
 * // POST /claims/prepare now answers not_found with suggested_endpoint, costing no units
 */
export function registerRetiredClaimsPrepareRoute(fastify: FastifyInstance, _deps: GatewayDependencies): void {
  fastify.post('/claims/prepare', { schema: { hide: true } }, async (request) => {
    const kind = (request.body as { kind?: unknown } | undefined)?.kind
    const suggested = kind === 'fee' ? '/claims/fees/prepare' : kind === 'vesting' ? '/claims/vesting/prepare' : undefined
    throw new GatewayProblem('not_found', {
      detail: suggested
        ? `POST /claims/prepare is retired; a ${kind} claim is prepared with POST ${suggested}.`
        : 'POST /claims/prepare is retired; use POST /claims/fees/prepare (kind=fee) or POST /claims/vesting/prepare (kind=vesting).',
      resource: 'route',
      suggestedEndpoint: suggested ?? '/claims/fees/prepare',
    })
  })
}
