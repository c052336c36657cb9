import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'

/** Where the human-readable reference is served. */
export const DOCS_PREFIX = '/docs'

/**
 * `GET /docs`: the API reference as a page (Swagger UI) over the same document as
 * `/openapi.json`. Works offline: its scripts and styles are files of the `@fastify/swagger-ui`
 * npm package served from `/docs/static/`, and the online spec validator is off. Public, like
 * `/openapi.json`: the app's `onRoute` hook marks every route under `/docs` public.
 *
 * @example
 * await registerDocsRoute(fastify) // /docs now serves the reference page (offline) that reads /openapi.json
 */
export async function registerDocsRoute(fastify: FastifyInstance): Promise<void> {
  await fastify.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 1 },
    validatorUrl: false,
    theme: { title: 'Swap aggregator API' },
  })
}
