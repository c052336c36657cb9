import type { FastifyInstance } from 'fastify'
import { buildOpenApiDocument } from '../openapi/buildOpenApiDocument.ts'
import { authenticatedErrorResponses } from './responses.ts'

/**
 * `GET /openapi.json`: the OpenAPI document (authenticated like every route but /health).
 *
 * @example
 * registerOpenApiRoute(fastify)
 */
export function registerOpenApiRoute(fastify: FastifyInstance): void {
  const document = JSON.stringify(buildOpenApiDocument())
  const { 400: _bad, ...errors } = authenticatedErrorResponses
  fastify.get('/openapi.json', { schema: { response: { ...errors } } }, async (_request, reply) => {
    // Sent as a prebuilt string: the document is the schema, not something to serialize through one.
    return reply.type('application/json; charset=utf-8').send(document)
  })
}
