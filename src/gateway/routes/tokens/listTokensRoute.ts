import { Type } from 'typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { TOKEN_SORTS, type TokenSort } from '../../readModel/tokenSorts.ts'
import { addressParam, gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { serveTokenList } from './serveTokenList.ts'
import { tokenListRouteConfig } from './tokenListRouteConfig.ts'

type Query = { sort?: TokenSort; limit?: number; cursor?: string; chain?: number; q?: string; creator?: string }

/** One token sort, self-contained (spec §9.3). */
export const sortQuery = Type.Union(
  TOKEN_SORTS.map((s) => Type.Literal(s)),
  { description: 'the order: newest, oldest, trending, liquidity, market_cap or volume_24h (default newest)' },
)

/**
 * `GET /tokens`: every launched token, sorted (default `newest`), paged; 2 units per 25 rows.
 * The deprecated forms `q=` and `creator=` still work (spec §9) and say where they moved
 * (`Deprecation`, `Link`): `q` is `/tokens/search` (which orders by market cap, so `sort` cannot
 * come with it), `creator` is `/creators/{address}/tokens`.
 *
 * @example
 * registerListTokensRoute(fastify, deps) // GET /tokens now answers { data, page: { limit, next_cursor }, meta }
 */
export function registerListTokensRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens',
    {
      schema: {
        summary: 'List tokens',
        operationId: 'listTokens',
        querystring: Type.Object(
          {
            sort: Type.Optional(sortQuery),
            limit: Type.Optional(pageQuery.limit),
            cursor: Type.Optional(pageQuery.cursor),
            chain: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_294_967_295, description: 'only this chain' })),
            q: Type.Optional(
              Type.String({ minLength: 1, maxLength: 64, deprecated: true, description: 'deprecated: use /tokens/search?q=' }),
            ),
            creator: Type.Optional(
              Type.String({ ...addressParam, deprecated: true, description: 'deprecated: use /creators/{address}/tokens' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: gatewayResponses({ ok: Type.Ref('TokenList'), description: 'A page of tokens', problems: [...KEYED_PROBLEMS, 409, 422] }),
      },
      config: {
        gateway: {
          ...tokenListRouteConfig({
            deps,
            operation: 'tokens.list',
            filtersOf: (request) => filtersOf(request.query as Query),
            check: checkDeprecatedForms,
          }),
          deprecated: {
            successor: (request) => {
              const q = request.query as Query
              if (q.q !== undefined) return `/tokens/search?q=${encodeURIComponent(q.q)}`
              if (q.creator !== undefined) return `/creators/${encodeURIComponent(q.creator)}/tokens`
              return undefined
            },
          },
        },
      },
    },
    async (request) => {
      const q = request.query as Query
      return serveTokenList({
        request,
        deps,
        route: 'tokens.list',
        filters: filtersOf(q),
        sort: q.q !== undefined ? 'market_cap' : (q.sort ?? 'newest'),
        limit: q.limit ?? 25,
        chainId: q.chain,
        creator: q.creator?.toLowerCase(),
        search: q.q?.toLowerCase(),
      })
    },
  )
}

function filtersOf(q: Query): Record<string, unknown> {
  return { sort: q.sort ?? null, chain: q.chain ?? null, q: q.q?.toLowerCase() ?? null, creator: q.creator?.toLowerCase() ?? null }
}

/** The deprecated forms name two different routes, and a search has its own order: neither combines. */
function checkDeprecatedForms(request: FastifyRequest): void {
  const q = request.query as Query
  if (q.q !== undefined && q.creator !== undefined) {
    throw new GatewayProblem('incompatible_parameters', {
      detail: 'q and creator are two deprecated forms of different routes; send one.',
      invalidParameters: [
        { name: 'q', in: 'query', reason: 'cannot be combined with creator' },
        { name: 'creator', in: 'query', reason: 'cannot be combined with q' },
      ],
      suggestedEndpoint: '/tokens/search',
    })
  }
  if (q.q !== undefined && q.sort !== undefined) {
    throw new GatewayProblem('incompatible_parameters', {
      detail: 'A search orders by market cap: send q without sort, or use /tokens/search.',
      invalidParameters: [{ name: 'sort', in: 'query', reason: 'cannot be combined with q' }],
      suggestedEndpoint: `/tokens/search?q=${encodeURIComponent(q.q)}`,
    })
  }
}
