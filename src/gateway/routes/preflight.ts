import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** What a browser may send: the key, JSON bodies and the idempotency key of the prepare routes. */
const ALLOWED_HEADERS = 'x-api-key, content-type, idempotency-key'

/**
 * `OPTIONS` on any path: the CORS preflight, public and free (spec §4 rule 4). A preflight
 * carries no key, so it cannot know which origins the key allows: it confirms only browser
 * transport (spec §5.2) for any origin, and the real request is checked in full (a key that does
 * not allow the origin answers `origin_not_allowed`, without CORS headers).
 *
 * @example
 * registerPreflightRoute(fastify)
 * // OPTIONS on any path now answers 204 with Allow: GET, POST, OPTIONS (and CORS headers for an Origin)
 */
export function registerPreflightRoute(fastify: FastifyInstance, _deps: GatewayDependencies): void {
  fastify.options('/*', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    const origin = request.headers.origin
    reply.header('allow', 'GET, POST, OPTIONS')
    if (origin !== undefined) {
      reply.header('access-control-allow-origin', origin)
      reply.header('access-control-allow-methods', 'GET, POST')
      reply.header('access-control-allow-headers', ALLOWED_HEADERS)
      reply.header('access-control-max-age', '600')
      reply.header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
    }
    return reply.code(204).send()
  })
}
