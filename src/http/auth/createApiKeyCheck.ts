import { createHash, timingSafeEqual } from 'node:crypto'

export type ApiKeyCheck = {
  /**
   * The key's id (hex SHA-256 of the key) when `presented` is one of the keys, else undefined.
   * Every configured key is compared, in constant time, whatever matches: neither the answer's
   * timing nor its id reveal which byte differed. The id, never the key, is what the limiter,
   * the quote store and the logs see.
   */
  check: (presented: string | string[] | undefined) => string | undefined
  /** How many keys are configured. */
  size: number
}

/**
 * The API-key check of the swap surface. Keys are kept only as SHA-256 digests; a presented key
 * is hashed and compared with every digest by `timingSafeEqual` (equal lengths by construction).
 *
 * @example
 * const keys = createApiKeyCheck({ keys: ['dev-key'] })
 * keys.check(request.headers['x-api-key']) // '6e2f…' or undefined
 */
export function createApiKeyCheck({ keys }: { keys: readonly string[] }): ApiKeyCheck {
  const digests = [...new Set(keys)].filter((k) => k.length > 0).map((k) => createHash('sha256').update(k).digest())
  if (digests.length === 0) throw new Error('at least one API key is required')
  return {
    size: digests.length,
    check: (presented) => {
      if (typeof presented !== 'string' || presented.length === 0) return undefined
      const digest = createHash('sha256').update(presented).digest()
      let found: Buffer | undefined
      for (const d of digests) if (timingSafeEqual(d, digest)) found = d
      return found?.toString('hex')
    },
  }
}
