import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** Spec §9.2's replacements: each deprecated or retired form, and its focused route. */
const REPLACEMENTS: [string, string][] = [
  ['GET /tokens?q=…', 'GET /tokens/search?q=…'],
  ['GET /tokens?creator=…', 'GET /creators/{address}/tokens'],
  ['GET /tokens/{chain}/{token}/activity?kind=trades', 'GET /tokens/{chain}/{token}/trades'],
  ['GET /tokens/{chain}/{token}/activity?kind=announcements', 'GET /tokens/{chain}/{token}/announcements'],
  ['GET /wallets/{address}/claims?kind=fee', 'GET /wallets/{address}/fee-claims'],
  ['GET /wallets/{address}/claims?kind=vesting', 'GET /wallets/{address}/vesting'],
  ['POST /claims/prepare (retired)', 'POST /claims/fees/prepare or POST /claims/vesting/prepare'],
  ['a separate order parameter next to sort', 'one self-contained sort value (newest, oldest, …)'],
]

/**
 * `GET /docs/migration`: the migration guide deprecated routes link to (`rel="deprecation"`).
 * Public: it is documentation.
 *
 * @example
 * registerMigrationGuidePage(fastify)
 * // GET /docs/migration now answers the HTML table of deprecated routes and their replacements, without a key
 */
export function registerMigrationGuidePage(fastify: FastifyInstance, _deps: GatewayDependencies): void {
  const rows = REPLACEMENTS.map(([from, to]) => `<tr><td>${from}</td><td>${to}</td></tr>`).join('')
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Migrating to the focused routes</title></head><body><h1>Migrating to the focused routes</h1><p>The combined forms keep working and answer Deprecation and Link headers; no sunset date is announced. The combined claim-write route is retired.</p><table><tr><th>Existing request</th><th>Focused route</th></tr>${rows}</table></body></html>`
  fastify.get('/docs/migration', { schema: { hide: true }, config: { public: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  )
}
