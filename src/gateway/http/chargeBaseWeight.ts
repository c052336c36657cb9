import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { planCharges } from './planCharges.ts'

/**
 * Charges a refused request its route's base weight (spec §8 rule 2: a scope refusal, a page above
 * the plan's largest), when the plan has room; the refusal is answered either way, so a plan with
 * no room left records nothing more.
 *
 * @example
 * await chargeBaseWeight(request, deps) // a `plans.get` request (weight { base: 1 }) of a key without its scope
 * // → request.gw.units === 1 and request.gw.states holds the plan's four policies after the charge
 */
export async function chargeBaseWeight(request: FastifyRequest, deps: Pick<GatewayDependencies, 'limiter'>): Promise<void> {
  const { key, limits } = request.gw
  const config = request.routeOptions.config?.gateway
  if (!key || !limits || !config) return
  const units = config.weight.base
  const decision = await deps.limiter.consume(planCharges({ keyPrefix: key.prefix, limits, units }), { keyPrefix: key.prefix, units })
  if (decision.allowed) {
    request.gw.states = decision.states
    request.gw.units = units
  }
}
