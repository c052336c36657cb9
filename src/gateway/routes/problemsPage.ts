import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { problemCodes } from '../problems/problemCodes.ts'

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/**
 * `GET /problems`: the error reference page a problem's `type` links to (one section per code,
 * its anchor the code), built from the one codes table. Public: it is documentation.
 *
 * @example
 * registerProblemsPage(fastify)
 * // GET /problems now answers the HTML reference, one section (anchor #<code>) per problem code
 */
export function registerProblemsPage(fastify: FastifyInstance, _deps: GatewayDependencies): void {
  const sections = Object.entries(problemCodes)
    .map(
      ([code, e]) =>
        `<section id="${code}"><h2>${code}</h2><p>HTTP ${e.statuses.join(' or ')}: ${escape(e.title)} (spec §${escape(e.section)}).</p><p>Next step: ${escape(e.action)}</p></section>`,
    )
    .join('\n')
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Gateway problem codes</title></head><body><h1>Problem codes</h1><p>Every error is application/problem+json; branch on status and code only.</p>\n${sections}\n</body></html>`
  fastify.get('/problems', { schema: { hide: true }, config: { public: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  )
}
