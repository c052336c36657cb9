import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { serveTokenList } from './serveTokenList.ts'
import { tokenListRouteConfig } from './tokenListRouteConfig.ts'

type Query = { q: string; limit?: number; cursor?: string; chain?: number }

/**
 * `GET /tokens/search?q=`: tokens whose name or symbol contains `q` (case-insensitive), or whose
 * address is `q`, largest market cap first; 2 units per 25 rows.
 *
 * @example
 * registerSearchTokensRoute(fastify, deps)
 * // GET /tokens/search?q=… now answers { data: [largest market cap first], page, meta }
 */
export function registerSearchTokensRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens/search',
    {
      schema: {
        summary: 'Search tokens by name, symbol or address',
        operationId: 'searchTokens',
        querystring: Type.Object(
          {
            q: Type.String({ minLength: 1, maxLength: 64, description: 'text in the name or symbol, or an exact address' }),
            limit: Type.Optional(pageQuery.limit),
            cursor: Type.Optional(pageQuery.cursor),
            chain: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_294_967_295, description: 'only this chain' })),
          },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('TokenList'),
          description: 'A page of matching tokens, largest market cap first',
          problems: [...KEYED_PROBLEMS, 409, 422],
        }),
      },
      config: {
        gateway: tokenListRouteConfig({ deps, operation: 'tokens.search', filtersOf: (request) => filtersOf(request.query as Query) }),
      },
    },
    async (request) => {
      const q = request.query as Query
      return serveTokenList({
        request,
        deps,
        route: 'tokens.search',
        filters: filtersOf(q),
        sort: 'market_cap',
        limit: q.limit ?? 25,
        chainId: q.chain,
        search: q.q.toLowerCase(),
      })
    },
  )
}

function filtersOf(q: Query): Record<string, unknown> {
  return { q: q.q.toLowerCase(), chain: q.chain ?? null }
}
