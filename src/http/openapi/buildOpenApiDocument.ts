import { executeRoute } from '../routes/execute.ts'
import { healthRoute } from '../routes/health.ts'
import { quoteRoute } from '../routes/quote.ts'
import { readyRoute } from '../routes/ready.ts'
import { submitRoute } from '../routes/submit.ts'

/** The interface version (spec §9: paths carry no version segment). */
export const API_VERSION = '0.1.0'

type RouteDescription = {
  method: string
  url: string
  summary: string
  public?: boolean
  schema: { body?: unknown; response: Record<number, unknown> }
}

const statusText: Record<number, string> = {
  200: 'OK',
  400: 'Validation error, refused combination, or no route (`{error}` names the field)',
  401: 'Missing or incorrect x-api-key (`{"error":"unauthorized"}`)',
  404: 'Unknown or expired quoteId, or a quote made with another API key',
  413: 'Body too large',
  415: 'Body is not application/json',
  429: 'Sliding-window rate limit exceeded (see Retry-After)',
  500: 'Internal error (no detail is echoed)',
  503: 'Market data is stale: quotes are refused until the chain is reachable again (/ready: not ready, and why)',
}

const openApiRoute: RouteDescription = {
  method: 'GET',
  url: '/openapi.json',
  summary: 'This document',
  schema: { response: { 200: { type: 'object', additionalProperties: true } } },
}

/**
 * The OpenAPI 3.1 document of the swap surface, built from the same TypeBox schemas the routes
 * validate and serialize with (so it cannot drift from what the server does).
 *
 * @example
 * const doc = buildOpenApiDocument()
 * doc.info.version // '0.1.0'
 */
export function buildOpenApiDocument() {
  const routes: RouteDescription[] = [healthRoute, readyRoute, quoteRoute, submitRoute, executeRoute, openApiRoute]
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const responses: Record<string, unknown> = {}
    for (const [status, schema] of Object.entries(route.schema.response)) {
      responses[status] = {
        description: statusText[Number(status)] ?? 'response',
        ...(Number(status) === 429
          ? { headers: { 'Retry-After': { description: 'seconds until the oldest counted hit leaves the window (at least 1)', schema: { type: 'integer', minimum: 1 } } } }
          : {}),
        content: { 'application/json': { schema } },
      }
    }
    paths[route.url] = {
      [route.method.toLowerCase()]: {
        summary: route.summary,
        operationId: route.url.replace(/[^a-z]/gi, ''),
        ...(route.public ? { security: [] } : {}),
        ...(route.schema.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.schema.body } } } } : {}),
        responses,
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Swap aggregator API',
      version: API_VERSION,
      description: 'Prices swaps on Base and builds swap-router calldata. /quote/compare and /quote/split are not served: no upstream adapter is configured. See docs/http-api.md.',
    },
    components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
    security: [{ ApiKey: [] }],
    paths,
  }
}
