import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import type { TokenSort } from '../../readModel/tokenSorts.ts'
import { addressParam, gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { sortQuery } from './listTokensRoute.ts'
import { tokenListRouteConfig } from './tokenListRouteConfig.ts'
import { serveTokenList } from './serveTokenList.ts'

type Query = { sort?: TokenSort; limit?: number; cursor?: string; chain?: number }

/**
 * `GET /creators/{address}/tokens`: the tokens one creator launched, in any token sort; 2 units
 * per 25 rows. A creator with no launches is an empty page, not a 404 (any address may launch).
 *
 * @example
 * registerCreatorTokensRoute(fastify, deps)
 * // GET /creators/:address/tokens now answers { data, page, meta }; an empty data for an address with no launch
 */
export function registerCreatorTokensRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/creators/:address/tokens',
    {
      schema: {
        summary: "List a creator's tokens",
        operationId: 'listCreatorTokens',
        params: Type.Object({ address: addressParam }, { additionalProperties: false }),
        querystring: Type.Object(
          {
            sort: Type.Optional(sortQuery),
            limit: Type.Optional(pageQuery.limit),
            cursor: Type.Optional(pageQuery.cursor),
            chain: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_294_967_295 })),
          },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('TokenList'),
          description: "A page of the creator's tokens",
          problems: [...KEYED_PROBLEMS, 409, 422],
        }),
      },
      config: {
        gateway: tokenListRouteConfig({
          deps,
          operation: 'creators.tokens',
          filtersOf: (request) => filtersOf(request.params as { address: string }, request.query as Query),
        }),
      },
    },
    async (request) => {
      const q = request.query as Query
      const { address } = request.params as { address: string }
      return serveTokenList({
        request,
        deps,
        route: 'creators.tokens',
        filters: filtersOf({ address }, q),
        sort: q.sort ?? 'newest',
        limit: q.limit ?? 25,
        chainId: q.chain,
        creator: address.toLowerCase(),
      })
    },
  )
}

function filtersOf({ address }: { address: string }, q: Query): Record<string, unknown> {
  return { creator: address.toLowerCase(), sort: q.sort ?? null, chain: q.chain ?? null }
}
