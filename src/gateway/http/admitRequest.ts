import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { willReplay } from '../idempotency/installIdempotencyHooks.ts'
import { routeUnits } from '../limits/routeUnits.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { chargeBaseWeight } from './chargeBaseWeight.ts'
import { planCharges } from './planCharges.ts'

/**
 * The `preHandler` phase of the gateway's pipeline (`installGatewayHooks`, step 4) for a keyed
 * route: the route's own checks (`validate`), a page above the plan's largest (`invalid_parameter`,
 * charged the base weight), then the limiter, every policy of the request at once
 * (`rate_limit_exceeded` for the plan's, `quota_exceeded` for a ceiling's; nothing is taken from
 * any policy when one refuses). An idempotent replay is charged its units but not the safety
 * ceilings (`willReplay`). An admitted request holds its units and its leases' release.
 *
 * @example
 * await admitRequest(request, deps) // GET /v1/tokens?limit=100 of a developer key with room left
 * // → request.gw.units === 8 (2 per 25 rows), request.gw.release releases its in-flight leases
 * await admitRequest(request, deps) // the same request again within the second (burst: 20 units a second)
 * // → 16 of 20; a third throws GatewayProblem 'rate_limit_exceeded' ("This key's burst limit is reached.", retryAfterSec set)
 */
export async function admitRequest(request: FastifyRequest, deps: GatewayDependencies): Promise<void> {
  const config = request.routeOptions.config?.gateway
  const { key, limits } = request.gw
  if (!config || !key || !limits) return
  await config.validate?.(request, deps)
  const query = (request.query ?? {}) as { limit?: number }
  const limit = config.defaultLimit === undefined ? undefined : (query.limit ?? config.defaultLimit)
  if (limit !== undefined && limit > limits.maxPage) {
    await chargeBaseWeight(request, deps)
    throw new GatewayProblem('invalid_parameter', {
      detail: `limit: at most ${limits.maxPage} rows per page on this key's plan.`,
      invalidParameters: [{ name: 'limit', in: 'query', reason: `above the plan's largest page (${limits.maxPage})` }],
    })
  }
  const units = config.units ? config.units(request) : routeUnits({ weight: config.weight, limit })
  const plan = planCharges({ keyPrefix: key.prefix, limits, units })
  const replay = await willReplay(request, deps)
  // Counted in the usage summaries by the same step that decides (admitted or refused).
  const decision = await deps.limiter.consume([...plan, ...(replay ? [] : (config.ceilings?.(request, deps) ?? []))], {
    keyPrefix: key.prefix,
    units,
  })
  request.gw.states = decision.states.slice(0, plan.length)
  if (!decision.allowed) {
    const byPlan = decision.violated.some((v) => v.group === 'plan')
    throw new GatewayProblem(byPlan ? 'rate_limit_exceeded' : 'quota_exceeded', {
      detail: byPlan
        ? `This key's ${decision.violated
            .filter((v) => v.group === 'plan')
            .map((v) => v.name)
            .join(' and ')} limit is reached.`
        : `A safety ceiling is reached: ${decision.violated.map((v) => v.name).join(', ')}.`,
      retryAfterSec: decision.retryAfterMs / 1000,
      violatedPolicies: decision.violated.map((v) => v.name),
    })
  }
  request.gw.units = units
  request.gw.release = decision.release
}
