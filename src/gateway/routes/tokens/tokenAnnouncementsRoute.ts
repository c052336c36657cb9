import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveAnnouncements } from '../../readModel/serveAnnouncements.ts'
import { registerTokenPageRoute } from './registerTokenPageRoute.ts'

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
  registerTokenPageRoute(fastify, deps, {
    list: 'announcements',
    summary: "List a token's announcements",
    operationId: 'listTokenAnnouncements',
    response: 'AnnouncementList',
    description: 'A page of announcements, newest first',
    operation: 'tokens.announcements',
    weight: ANNOUNCEMENTS_WEIGHT,
    serve: serveAnnouncements,
  })
}
