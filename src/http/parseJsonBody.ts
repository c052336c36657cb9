import type { FastifyInstance } from 'fastify'
import { HttpError } from './errors.ts'

/** Deepest nesting of arrays and objects a request body may have; the deepest spec request is 3. */
export const MAX_JSON_DEPTH = 16

/**
 * How deep `text` nests arrays and objects, stopping as soon as it passes `limit` (one pass, no
 * recursion: a 100,000-deep body costs a scan, not a stack).
 *
 * @example
 * jsonNestingDepth('{"a":[1,{"b":2}]}', 16) // 3
 */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        max = depth
        if (max > limit) return max
      }
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return max
}

/**
 * Makes JSON the only body type (anything else: 415) and replaces Fastify's JSON parser with the same secure parser (prototype poisoning refused) behind
 * a nesting-depth check: a body nested deeper than `MAX_JSON_DEPTH` is a 400 before it is parsed.
 *
 * @example
 * installJsonBodyParser(fastify)
 * // only application/json is parsed now: other types answer 415, a body nested past MAX_JSON_DEPTH 400
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  const secureParse = fastify.getDefaultJsonParser('error', 'error')
  // JSON only: Fastify's text/plain parser would let a string body reach validation.
  fastify.removeAllContentTypeParsers()
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new HttpError(400, `body: nested deeper than ${MAX_JSON_DEPTH} levels`), undefined)
      return
    }
    secureParse(request, text, done)
  })
}
