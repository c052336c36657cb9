import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

/**
 * The interface version (spec §9: paths carry no version segment). 0.2.0 adds the
 * `pancake_infinity_cl`, `balancer_vault` and `maverick_v2` leg kinds to `LegData`; nothing else changed shape
 * (docs/route-legs.md).
 */
export const API_VERSION = '0.2.0'

/**
 * Registers `@fastify/swagger`, which builds the OpenAPI 3.1 document from the routes as they are
 * registered (their `schema`: body, responses, summary, security) and from the shared schemas
 * (`fastify.addSchema`), each listed once under `components.schemas` by its `$id` and referenced
 * with `$ref`. Nothing is written twice: the document is what the routes validate and serialize
 * with. Register it before the routes (it collects them in an `onRoute` hook).
 *
 * @example
 * await registerOpenApi(fastify)
 * registerQuoteRoute(fastify, deps)
 * await fastify.ready()
 * fastify.swagger() // the document
 */
export async function registerOpenApi(fastify: FastifyInstance, { upstreams = [] }: { upstreams?: string[] } = {}): Promise<void> {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Swap aggregator API',
        version: API_VERSION,
        description: [
          'Prices swaps and builds calls to our swap router. This document is exact for this server:',
          'its chain id, the amounts the router can hold, the fee it can pay out, and the combinations it refuses are',
          'stated in the schemas, so a request the schemas accept is refused only when the market cannot fill it',
          '(400 `no route: …`, 503 stale market) or, on /submit, when the stored quote cannot honour a flag.',
          upstreams.length > 0
            ? `/quote/compare and /quote/split ask the upstream aggregators configured here: ${upstreams.join(', ')}.`
            : '/quote/compare and /quote/split are not served: no upstream adapter is configured.',
          'Every response carries `x-request-id`. The human-readable reference is at /docs; decisions: docs/http-api.md.',
        ].join(' '),
      },
      components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ ApiKey: [] }],
    },
    // Components are named by their `$id` (the default names them def-0, def-1, …).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  })
}
