import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { problemCodes } from '../problems/problemCodes.ts'

/** The gateway interface's version (spec §9.5 leaves the scheme open: semantic versioning, no path segment). */
export const GATEWAY_API_VERSION = '1.0.0'

/**
 * Registers `@fastify/swagger` on the gateway: the OpenAPI 3.1 document is built from the routes'
 * own schemas and the shared components (`$id`), so it is exactly what the gateway validates and
 * answers. Register before the routes.
 *
 * @example
 * await registerGatewayOpenApi(fastify)
 * // fastify.swagger() now builds the OpenAPI 3.1 document from the routes registered after this
 */
export async function registerGatewayOpenApi(fastify: FastifyInstance): Promise<void> {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Token launch gateway API',
        version: GATEWAY_API_VERSION,
        description: [
          'Read data about launched tokens, their creators and wallets, and prepare unsigned transactions (launch, swap, claim, metadata updates) for the caller to sign and broadcast: each is a simulated plan (GET /plans/{id}).',
          'Every route but /health needs x-api-key and costs weighted units (the X-RateLimit and RateLimit headers say how many remain).',
          'Errors are application/problem+json; branch on status and code only (each code is described at GET /problems, which every problem’s type links to).',
          'Amounts are decimal strings of base units. Decisions: docs/gateway/.',
          `\n\nProblem codes: ${Object.keys(problemCodes)
            .map((code) => `[${code}](/problems#${code})`)
            .join(', ')}.`,
        ].join(' '),
      },
      components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ ApiKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  })
}
