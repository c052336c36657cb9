import { createHash } from 'node:crypto'
import { canonicalJson } from '../../http/quotes/canonicalJson.ts'

/**
 * What makes two requests "the same request" for an Idempotency-Key (spec §3): the method, the
 * path (its `{chain}` and `{token}` are input too) and the body as canonical JSON (keys sorted,
 * no whitespace), so a body re-serialised with its keys in another order is still the same
 * request, while any changed value is not. SHA-256, hex.
 *
 * @example
 * idempotencyFingerprint({ method: 'POST', path: '/launches/prepare', body: { name: 'X' } })
 * // → 'b8fe80bc0b371a6a5b5fb6187c301b2cb9a87c71ed6b6fb15e611098b0c5e6c0' (whatever order the body's keys come in)
 */
export function idempotencyFingerprint({ method, path, body }: { method: string; path: string; body: unknown }): string {
  return createHash('sha256')
    .update(canonicalJson({ method, path, body: body ?? null }))
    .digest('hex')
}
