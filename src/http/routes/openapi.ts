import type { FastifyInstance } from 'fastify'

/**
 * `GET /openapi.json`: the OpenAPI document `@fastify/swagger` built from the routes. Public (no
 * key, not counted), like the reference page at /docs that reads it: it describes the interface
 * only, holds nothing secret, and a browser cannot send `x-api-key` (docs/http-api.md).
 *
 * @example
 * registerOpenApiRoute(fastify) // GET /openapi.json now answers the OpenAPI 3.1 document, without a key
 */
export function registerOpenApiRoute(fastify: FastifyInstance): void {
  let document: string | undefined
  fastify.get(
    '/openapi.json',
    {
      schema: {
        summary: 'This document (OpenAPI 3.1); no authentication, not rate limited',
        operationId: 'openapi',
        security: [],
        response: { 200: { type: 'object', additionalProperties: true, description: 'The OpenAPI 3.1 document of this server' } },
      },
      config: { public: true },
    },
    async (_request, reply) => {
      // Sent as a prebuilt string: the document is the schema, not something to serialize through one.
      document ??= JSON.stringify(fastify.swagger())
      return reply.type('application/json; charset=utf-8').send(document)
    },
  )
}
