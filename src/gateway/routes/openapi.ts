import type { FastifyInstance } from 'fastify'

/**
 * `GET /openapi.json`: the gateway's OpenAPI document (public: it is documentation, not data).
 *
 * @example
 * registerGatewayOpenApiRoute(fastify) // GET /openapi.json now answers the gateway's OpenAPI document, without a key
 */
export function registerGatewayOpenApiRoute(fastify: FastifyInstance): void {
  fastify.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => fastify.swagger())
}
