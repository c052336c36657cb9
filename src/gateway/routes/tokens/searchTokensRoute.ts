import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { readCursor } from '../readCursor.ts'
import { requireChain } from '../requireChain.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { retiredOrder } from './listTokensRoute.ts'
import { serveTokenList } from './serveTokenList.ts'

type Query = { q: string; limit?: number; cursor?: string; chain?: number }

/**
 * `GET /tokens/search?q=`: tokens whose name or symbol contains `q` (case-insensitive), or whose
 * address is `q`, largest market cap first; 2 units per 25 rows.
 *
 * @example
 * registerSearchTokensRoute(fastify, deps)
 */
export function registerSearchTokensRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get('/tokens/search', {
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
      response: gatewayResponses({ ok: Type.Ref('TokenList'), description: 'A page of matching tokens, largest market cap first', problems: [...KEYED_PROBLEMS, 409, 422] }),
    },
    config: {
      gateway: {
        operation: 'tokens.search',
        scope: 'tokens:read',
        weight: { base: 2, rowsPerStep: 25 },
        defaultLimit: 25,
        retiredParameters: retiredOrder,
        validate: (request) => {
          const q = request.query as Query
          if (q.chain !== undefined) requireChain({ deps, chainId: q.chain })
          readCursor({ request, deps, route: 'tokens.search', filters: { q: q.q.toLowerCase(), chain: q.chain ?? null } })
        },
      },
    },
  }, async (request) => {
    const q = request.query as Query
    return serveTokenList({ request, deps, route: 'tokens.search', filters: { q: q.q.toLowerCase(), chain: q.chain ?? null }, sort: 'market_cap', limit: q.limit ?? 25, chainId: q.chain, search: q.q.toLowerCase() })
  })
}
