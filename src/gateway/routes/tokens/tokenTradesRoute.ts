import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveTrades } from '../../readModel/serveTrades.ts'
import { readCursor } from '../readCursor.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'

/** Trades and wallet-side lists: 3 units per 25 rows (spec §8). */
export const TRADES_WEIGHT = { base: 3, rowsPerStep: 25 }

/**
 * `GET /tokens/{chain}/{token}/trades`: the token's trades, newest first; 3 units per 25 rows.
 *
 * @example
 * registerTokenTradesRoute(fastify, deps)
 * // GET /tokens/:chain/:token/trades now answers { data: [newest first], page, meta }
 */
export function registerTokenTradesRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens/:chain/:token/trades',
    {
      schema: {
        summary: "List a token's trades",
        operationId: 'listTokenTrades',
        params: tokenPathParams,
        querystring: Type.Object(
          { limit: Type.Optional(pageQuery.limit), cursor: Type.Optional(pageQuery.cursor) },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('TradeList'),
          description: 'A page of trades, newest first',
          problems: [...KEYED_PROBLEMS, 404, 409, 422],
        }),
      },
      config: {
        gateway: {
          operation: 'tokens.trades',
          scope: 'tokens:read',
          weight: TRADES_WEIGHT,
          defaultLimit: 25,
          validate: (request) => {
            const path = readTokenPath({ request, deps })
            request.gw.locals.path = path
            readCursor({ request, deps, route: 'tokens.trades', filters: path })
          },
        },
      },
    },
    async (request) => {
      const path = request.gw.locals.path as { chainId: number; token: string }
      return serveTrades({
        request,
        deps,
        route: 'tokens.trades',
        filters: path,
        ...path,
        limit: (request.query as { limit?: number }).limit ?? 25,
      })
    },
  )
}
