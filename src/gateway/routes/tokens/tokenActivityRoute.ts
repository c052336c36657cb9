import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { routeUnits } from '../../limits/routeUnits.ts'
import { serveAnnouncements } from '../../readModel/serveAnnouncements.ts'
import { serveTrades } from '../../readModel/serveTrades.ts'
import { readCursor } from '../readCursor.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'
import { ANNOUNCEMENTS_WEIGHT } from './tokenAnnouncementsRoute.ts'
import { TRADES_WEIGHT } from './tokenTradesRoute.ts'

type Query = { kind: 'trades' | 'announcements'; limit?: number; cursor?: string }

/**
 * `GET /tokens/{chain}/{token}/activity?kind=`: the deprecated combined form (spec §9): the same
 * pages and units as `/trades` or `/announcements`, with `Deprecation` and a `Link` to the
 * focused route. Its cursors are its own (they name this route and `kind`).
 *
 * @example
 * registerTokenActivityRoute(fastify, deps)
 * // GET /tokens/:chain/:token/activity?kind=trades now answers /trades' page, with Deprecation and Link
 */
export function registerTokenActivityRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens/:chain/:token/activity',
    {
      schema: {
        summary: "A token's trades or announcements (deprecated: use /trades or /announcements)",
        operationId: 'listTokenActivity',
        deprecated: true,
        params: tokenPathParams,
        querystring: Type.Object(
          {
            kind: Type.Union([Type.Literal('trades'), Type.Literal('announcements')]),
            limit: Type.Optional(pageQuery.limit),
            cursor: Type.Optional(pageQuery.cursor),
          },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('ActivityList'),
          description: 'A page of trades or announcements, newest first',
          problems: [...KEYED_PROBLEMS, 404, 409, 422],
        }),
      },
      config: {
        gateway: {
          operation: 'tokens.activity',
          scope: 'tokens:read',
          weight: TRADES_WEIGHT,
          units: (request) => {
            const q = request.query as Query
            return routeUnits({ weight: q.kind === 'trades' ? TRADES_WEIGHT : ANNOUNCEMENTS_WEIGHT, limit: q.limit ?? 25 })
          },
          defaultLimit: 25,
          validate: (request) => {
            const path = readTokenPath({ request, deps })
            request.gw.locals.path = path
            readCursor({ request, deps, route: 'tokens.activity', filters: { ...path, kind: (request.query as Query).kind } })
          },
          deprecated: {
            successor: (request) => {
              const { chain, token } = request.params as { chain: string; token: string }
              // The path may be any text here (a request refused for it still says where the route moved): encoded, so the Link header stays valid.
              const base = `/tokens/${encodeURIComponent(chain)}/${encodeURIComponent(token)}`
              const { kind } = (request.query ?? {}) as Partial<Query>
              return kind === 'trades' || kind === 'announcements' ? `${base}/${kind}` : `${base}/trades`
            },
          },
        },
      },
    },
    async (request) => {
      const q = request.query as Query
      const path = request.gw.locals.path as { chainId: number; token: string }
      const serve = q.kind === 'trades' ? serveTrades : serveAnnouncements
      return serve({ request, deps, route: 'tokens.activity', filters: { ...path, kind: q.kind }, ...path, limit: q.limit ?? 25 })
    },
  )
}
