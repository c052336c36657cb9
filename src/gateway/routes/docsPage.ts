import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/**
 * `GET /docs`: the gateway's API reference as a page (Swagger UI over the same document as
 * `/openapi.json`), as the swap surface serves its own. Offline: its scripts and styles are files
 * of the `@fastify/swagger-ui` package, the online validator is off. Public, like
 * `/openapi.json`: a browser cannot send `x-api-key` when it loads a page, so every route under
 * `/docs` (the page, its static files, `/docs/json`, and the migration guide) needs no key and
 * costs nothing. The document's description links every problem code to its section of
 * `/problems`.
 *
 * @example
 * await registerDocsPage(fastify, deps)
 * // /docs now serves the reference page and /docs/json the document, free and without a key
 */
export async function registerDocsPage(fastify: FastifyInstance, _deps: GatewayDependencies): Promise<void> {
  fastify.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) route.config = { ...route.config, public: true }
  })
  await fastify.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 1 },
    validatorUrl: false,
    theme: { title: 'Token launch gateway API' },
  })
}
