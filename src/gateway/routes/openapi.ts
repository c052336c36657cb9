import type { FastifyInstance } from 'fastify'

/**
 * `GET /openapi.json`: the gateway's OpenAPI document (public: it is documentation, not data).
 *
 * @example
 * registerGatewayOpenApiRoute(fastify)
 */
export function registerGatewayOpenApiRoute(fastify: FastifyInstance): void {
  fastify.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => fastify.swagger())
}
