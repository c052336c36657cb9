import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveAnnouncements } from '../../readModel/serveAnnouncements.ts'
import { readCursor } from '../readCursor.ts'
import { gatewayResponses, KEYED_PROBLEMS, pageQuery } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'

/** Announcements: 2 units per 25 rows (spec §8). */
export const ANNOUNCEMENTS_WEIGHT = { base: 2, rowsPerStep: 25 }

/**
 * `GET /tokens/{chain}/{token}/announcements`: the token's signed announcements, newest first;
 * 2 units per 25 rows.
 *
 * @example
 * registerTokenAnnouncementsRoute(fastify, deps)
 * // GET /tokens/:chain/:token/announcements now answers { data: [newest first], page, meta }
 */
export function registerTokenAnnouncementsRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens/:chain/:token/announcements',
    {
      schema: {
        summary: "List a token's announcements",
        operationId: 'listTokenAnnouncements',
        params: tokenPathParams,
        querystring: Type.Object(
          { limit: Type.Optional(pageQuery.limit), cursor: Type.Optional(pageQuery.cursor) },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('AnnouncementList'),
          description: 'A page of announcements, newest first',
          problems: [...KEYED_PROBLEMS, 404, 409, 422],
        }),
      },
      config: {
        gateway: {
          operation: 'tokens.announcements',
          scope: 'tokens:read',
          weight: ANNOUNCEMENTS_WEIGHT,
          defaultLimit: 25,
          validate: (request) => {
            const path = readTokenPath({ request, deps })
            request.gw.locals.path = path
            readCursor({ request, deps, route: 'tokens.announcements', filters: path })
          },
        },
      },
    },
    async (request) => {
      const path = request.gw.locals.path as { chainId: number; token: string }
      return serveAnnouncements({
        request,
        deps,
        route: 'tokens.announcements',
        filters: path,
        ...path,
        limit: (request.query as { limit?: number }).limit ?? 25,
      })
    },
  )
}
