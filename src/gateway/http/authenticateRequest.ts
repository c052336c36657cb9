import type { FastifyRequest } from 'fastify'
import { authenticateGatewayKey } from '../auth/authenticateGatewayKey.ts'
import type { ApiKeyRecord } from '../auth/ApiKeyRecord.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import type { PlanLimits } from '../limits/plans.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { chargeBaseWeight } from './chargeBaseWeight.ts'
import { planCharges } from './planCharges.ts'

/**
 * The `onRequest` phase of the gateway's pipeline (`installGatewayHooks`, step 1) for a keyed
 * route: the key (`missing_api_key`, `invalid_api_key`; an uncached lookup is charged to the
 * per-source ceiling first), its calendar usage reloaded when first seen, the route's scope
 * (`insufficient_scope`, charged the route's base weight: §8 rule 2) and the browser origin
 * (`origin_not_allowed`). Returns the authenticator; it keeps which keys' calendars it has seeded.
 *
 * @example
 * const authenticate = createRequestAuthenticator(deps)
 * await authenticate(request) // x-api-key of a developer key, on a route of its scope
 * // → request.gw.key.prefix === 'abcdefghijkl', request.gw.limits === plans.developer
 * await authenticate(requestWithoutKey) // throws GatewayProblem 'missing_api_key' (401)
 */
export function createRequestAuthenticator(deps: GatewayDependencies): (request: FastifyRequest) => Promise<void> {
  const seeded = new Set<string>()
  /** A key's day and month survive restarts: reloaded from the usage summaries when first seen (once a UTC day). */
  const seedCalendar = async (key: ApiKeyRecord, limits: PlanLimits) => {
    const period = new Date(deps.now()).toISOString().slice(0, 10)
    if (seeded.has(`${key.prefix} ${period}`)) return
    seeded.add(`${key.prefix} ${period}`)
    const used = await deps.usage.load(key.prefix)
    const [, , day, month] = planCharges({ keyPrefix: key.prefix, limits, units: 0 })
    await deps.limiter.seedCalendar(day.policy as never, used.day)
    await deps.limiter.seedCalendar(month.policy as never, used.month)
  }
  return async (request) => {
    const { key, limits } = await authenticateGatewayKey({
      presented: request.headers['x-api-key'],
      source: request.gw.source,
      deps,
      log: request.log,
    })
    request.gw.key = key
    request.gw.limits = limits
    await seedCalendar(key, limits)
    const config = request.routeOptions.config?.gateway
    if (!config) return
    if (!key.scopes.has(config.scope)) {
      await chargeBaseWeight(request, deps)
      throw new GatewayProblem('insufficient_scope', { detail: `This route needs the scope ${config.scope}.` })
    }
    const origin = request.headers.origin
    if (origin !== undefined && !key.allowedOrigins.has(origin))
      throw new GatewayProblem('origin_not_allowed', { detail: 'This key does not allow calls from this browser origin.' })
  }
}
