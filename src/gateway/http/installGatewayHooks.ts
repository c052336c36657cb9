import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { rateLimitHeaders } from '../limits/rateLimitHeaders.ts'
import { admitRequest } from './admitRequest.ts'
import { createRequestAuthenticator } from './authenticateRequest.ts'
import { checkQueryParameters } from './checkQueryParameters.ts'
import { deprecationHeaders } from './deprecationHeaders.ts'
import { planCharges } from './planCharges.ts'

/** Headers a browser script may read from the gateway's answers. */
const EXPOSED_HEADERS =
  'ratelimit, ratelimit-policy, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-request-id, retry-after, deprecation, link'

/**
 * The gateway's request pipeline, in spec §5.2's order of concern:
 * 1. `onRequest`: request id; then (`createRequestAuthenticator`) the key (`missing_api_key`, `invalid_api_key`; an uncached key
 *    lookup is charged to the per-source ceiling first), the route's scope
 *    (`insufficient_scope`, charged the route's base weight: §8 rule 2), the browser origin
 *    (`origin_not_allowed`). Public routes and preflights skip all of it (free: §4 rule 4).
 * 2. `preValidation`: repeated, retired and unknown query parameters (§4 rules 2-3).
 * 3. Fastify's schema validation (`invalid_parameter`).
 * 4. `preHandler` (`admitRequest`): the route's own checks (combinations, supported chain, cursor); a page above
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
  const authenticate = createRequestAuthenticator(deps)

  fastify.addHook('onRequest', async (request, reply) => {
    request.gw = { source: request.ip, units: 0, locals: {} }
    reply.header('x-request-id', request.id)
    if (request.method === 'OPTIONS' || request.routeOptions.config?.public) return
    await authenticate(request)
  })

  fastify.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config?.gateway
    if (!config) return
    const properties = (request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
    checkQueryParameters({ url: request.raw.url ?? '', accepted: Object.keys(properties), retired: config.retiredParameters })
  })

  fastify.addHook('preHandler', async (request) => admitRequest(request, deps))

  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    await writeAnswerHeaders(request, reply, deps)
    return payload
  })

  const release = async (request: FastifyRequest) => {
    await request.gw?.release?.()
  }
  fastify.addHook('onResponse', release)
  fastify.addHook('onRequestAbort', release)
}

/**
 * Step 5: rate-limit headers for every keyed response (read from the limiter when the request was
 * refused before it), CORS headers for an allowed origin, `Deprecation` and `Link` on a deprecated
 * route, and `Cache-Control: no-store` unless the route set its own.
 */
async function writeAnswerHeaders(request: FastifyRequest, reply: FastifyReply, deps: GatewayDependencies): Promise<void> {
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
}
