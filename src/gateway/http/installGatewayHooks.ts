import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { authenticateGatewayKey } from '../auth/authenticateGatewayKey.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { rateLimitHeaders } from '../limits/rateLimitHeaders.ts'
import { routeUnits } from '../limits/routeUnits.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { willReplay } from '../idempotency/installIdempotencyHooks.ts'
import { checkQueryParameters } from './checkQueryParameters.ts'
import { deprecationHeaders } from './deprecationHeaders.ts'
import { planCharges } from './planCharges.ts'

/** Headers a browser script may read from the gateway's answers. */
const EXPOSED_HEADERS =
  'ratelimit, ratelimit-policy, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-request-id, retry-after, deprecation, link'

/**
 * The gateway's request pipeline, in spec §5.2's order of concern:
 * 1. `onRequest`: request id; then the key (`missing_api_key`, `invalid_api_key`; an uncached key
 *    lookup is charged to the per-source ceiling first), the route's scope
 *    (`insufficient_scope`, charged the route's base weight: §8 rule 2), the browser origin
 *    (`origin_not_allowed`). Public routes and preflights skip all of it (free: §4 rule 4).
 * 2. `preValidation`: repeated, retired and unknown query parameters (§4 rules 2-3).
 * 3. Fastify's schema validation (`invalid_parameter`).
 * 4. `preHandler`: the route's own checks (combinations, supported chain, cursor); a page above
 *    the plan's largest (`invalid_parameter`, charged the base weight); then the limiter, every
 *    policy of the request at once (`rate_limit_exceeded` for the plan's, `quota_exceeded` for a
 *    ceiling's; nothing is taken from any policy when one refuses). An idempotent replay is
 *    charged its units but not the safety ceilings (`willReplay`).
 * 5. `onSend`: rate-limit headers for every keyed response, CORS headers for allowed origins,
 *    `Deprecation` and `Link` on deprecated routes, `Cache-Control: no-store`.
 * 6. `onResponse` / `onRequestAbort`: the request's in-flight leases are released.
 * Refusals before the limiter cost nothing unless rule 2 says otherwise; a request the limiter
 * admitted costs its weight whatever happens next (§8 rules 1 and 4).
 *
 * @example
 * installGatewayHooks(fastify, deps)
 * // every route now authenticates, charges its weight, applies its ceilings and answers refusals as problems
 */
export function installGatewayHooks(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.decorateRequest('gw', null as never)

  /** Charges the route's base weight (rule 2), when the plan has room; the refusal is answered either way. */
  const chargeBase = async (request: FastifyRequest) => {
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
  const seeded = new Set<string>()

  fastify.addHook('onRequest', async (request, reply) => {
    request.gw = { source: request.ip, units: 0, locals: {} }
    reply.header('x-request-id', request.id)
    if (request.method === 'OPTIONS' || request.routeOptions.config?.public) return
    const { key, limits } = await authenticateGatewayKey({
      presented: request.headers['x-api-key'],
      source: request.gw.source,
      deps,
      log: request.log,
    })
    request.gw.key = key
    request.gw.limits = limits
    // A key's day and month survive restarts: reloaded from the usage summaries when first seen.
    const period = new Date(deps.now()).toISOString().slice(0, 10)
    if (!seeded.has(`${key.prefix} ${period}`)) {
      seeded.add(`${key.prefix} ${period}`)
      const used = await deps.usage.load(key.prefix)
      const [, , day, month] = planCharges({ keyPrefix: key.prefix, limits, units: 0 })
      await deps.limiter.seedCalendar(day.policy as never, used.day)
      await deps.limiter.seedCalendar(month.policy as never, used.month)
    }
    const config = request.routeOptions.config?.gateway
    if (!config) return
    if (!key.scopes.has(config.scope)) {
      await chargeBase(request)
      throw new GatewayProblem('insufficient_scope', { detail: `This route needs the scope ${config.scope}.` })
    }
    const origin = request.headers.origin
    if (origin !== undefined && !key.allowedOrigins.has(origin))
      throw new GatewayProblem('origin_not_allowed', { detail: 'This key does not allow calls from this browser origin.' })
  })

  fastify.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config?.gateway
    if (!config) return
    const properties = (request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
    checkQueryParameters({ url: request.raw.url ?? '', accepted: Object.keys(properties), retired: config.retiredParameters })
  })

  fastify.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config?.gateway
    const { key, limits } = request.gw
    if (!config || !key || !limits) return
    await config.validate?.(request, deps)
    const query = (request.query ?? {}) as { limit?: number }
    const limit = config.defaultLimit === undefined ? undefined : (query.limit ?? config.defaultLimit)
    if (limit !== undefined && limit > limits.maxPage) {
      await chargeBase(request)
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
  })

  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const { key, limits } = request.gw ?? {}
    if (key && limits) {
      // A shared limiter that cannot be reached (the answer is then its 503) leaves the headers out.
      const states =
        request.gw.states ?? (await deps.limiter.peek(planCharges({ keyPrefix: key.prefix, limits, units: 0 })).catch(() => undefined))
      if (states) for (const [name, value] of Object.entries(rateLimitHeaders({ states }))) reply.header(name, value)
    }
    const origin = request.headers.origin
    if (origin !== undefined && key?.allowedOrigins.has(origin)) {
      reply.header('access-control-allow-origin', origin)
      reply.header('access-control-expose-headers', EXPOSED_HEADERS)
      reply.header('vary', 'Origin')
    }
    const successor = request.routeOptions.config?.gateway?.deprecated?.successor(request)
    if (successor)
      for (const [name, value] of Object.entries(deprecationHeaders({ migrationGuideUrl: deps.migrationGuideUrl, successor })))
        reply.header(name, value)
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    return payload
  })

  const release = async (request: FastifyRequest) => {
    await request.gw?.release?.()
  }
  fastify.addHook('onResponse', release)
  fastify.addHook('onRequestAbort', release)
}
