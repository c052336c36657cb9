import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import type { TokenPageParameters } from '../../readModel/PageParameters.ts'
import type { RouteWeight } from '../../limits/routeUnits.ts'
import { readCursor } from '../readCursor.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'

/** One paginated list of a token's rows: what differs between its trades and its announcements. */
export type TokenPageRoute = {
  /** The path under `/tokens/{chain}/{token}/`, e.g. `trades`. */
  list: string
  summary: string
  operationId: string
  /** The `$id` of the page's response schema. */
  response: string
  description: string
  /** Also the cursor's route: a cursor of one list is refused by another. */
  operation: string
  weight: RouteWeight
  serve: (parameters: TokenPageParameters) => Promise<unknown>
}

/**
 * Registers `GET /tokens/{chain}/{token}/<list>` (scope `tokens:read`; `limit` and `cursor`, 25
 * rows by default; units by the list's weight per 25 rows): the token path and the cursor checked
 * with request validation, then the list's own `serve`.
 *
 * @example
 * registerTokenPageRoute(fastify, deps, { list: 'trades', ..., serve: serveTrades })
 * // GET /tokens/8453/0x…/trades?limit=50 → 200 { data: [50 trades], page: { limit: 50, next_cursor }, meta }, charged 6 units (3 per 25 rows)
 */
export function registerTokenPageRoute(fastify: FastifyInstance, deps: GatewayDependencies, route: TokenPageRoute): void {
  fastify.get(
    `/tokens/:chain/:token/${route.list}`,
    {
      schema: {
        summary: route.summary,
        operationId: route.operationId,
        params: tokenPathParams,
        querystring: Type.Object(
          { limit: Type.Optional(pageQuery.limit), cursor: Type.Optional(pageQuery.cursor) },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref(route.response),
          description: route.description,
          problems: [...KEYED_PROBLEMS, 404, 409, 422],
        }),
      },
      config: {
        gateway: {
          operation: route.operation,
          scope: 'tokens:read',
          weight: route.weight,
          defaultLimit: 25,
          validate: (request) => {
            const path = readTokenPath({ request, deps })
            request.gw.locals.path = path
            readCursor({ request, deps, route: route.operation, filters: path })
          },
        },
      },
    },
    async (request) => {
      const path = request.gw.locals.path as { chainId: number; token: string }
      return route.serve({
        request,
        deps,
        route: route.operation,
        filters: path,
        ...path,
        limit: (request.query as { limit?: number }).limit ?? 25,
      })
    },
  )
}
