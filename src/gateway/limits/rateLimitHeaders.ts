import { serializeList } from 'structured-headers'
import type { PolicyState } from './LimitPolicy.ts'

/**
 * The rate-limit response headers from the key's plan policies (spec §8; IETF
 * draft-ietf-httpapi-ratelimit-headers-11 structured fields, serialised with `structured-headers`):
 * `RateLimit-Policy` lists every plan policy (`q` units per `w` seconds; units are the routes'
 * weighted units, so no `qu`), `RateLimit` where each stands (`r` remaining, `t` seconds until it
 * frees up), and the legacy `X-RateLimit-Limit`, `-Remaining` and `-Reset` (delta seconds) for the
 * policy closest to exhaustion (least remaining relative to its quota; the shorter window on ties).
 *
 * @example
 * for (const [name, value] of Object.entries(rateLimitHeaders({ states }))) reply.header(name, value)
 * // states [{ name: 'minute', limit: 60, windowSec: 60, remaining: 52, resetSec: 60 }] → RateLimit-Policy '"minute";q=60;w=60',
 * //   RateLimit '"minute";r=52;t=60', X-RateLimit-Limit '60', X-RateLimit-Remaining '52', X-RateLimit-Reset '60'
 */
export function rateLimitHeaders({ states }: { states: readonly PolicyState[] }): Record<string, string> {
  if (states.length === 0) return {}
  const policy = serializeList(
    states.map((s) => [
      s.name,
      new Map<string, number>([
        ['q', s.limit],
        ['w', s.windowSec],
      ]),
    ]),
  )
  const current = serializeList(
    states.map((s) => [
      s.name,
      new Map<string, number>([
        ['r', s.remaining],
        ['t', s.resetSec],
      ]),
    ]),
  )
  const tightest = [...states].sort((a, b) => a.remaining / a.limit - b.remaining / b.limit || a.windowSec - b.windowSec)[0]
  return {
    'ratelimit-policy': policy,
    ratelimit: current,
    'x-ratelimit-limit': String(tightest.limit),
    'x-ratelimit-remaining': String(tightest.remaining),
    'x-ratelimit-reset': String(tightest.resetSec),
  }
}
