import { createHash, timingSafeEqual } from 'node:crypto'
import type { Address } from 'viem'

/** What a key may carry besides itself (API_KEYS_FILE settings); unset: the service's defaults. */
export type ApiKeySettings = {
  /** Receives this key's integrator fees instead of `FEE_RECIPIENT`. */
  feeRecipient?: Address
  /** Caps this key's `feeBps` instead of `MAX_FEE_BPS`. */
  maxFeeBps?: number
}

/** One configured key, held only as its digest. */
export type ApiKeyEntry = ApiKeySettings & {
  /** Lowercase hex SHA-256 of the key. */
  sha256: string
  /** Where it was configured (`API_KEYS entry 2`, `API_KEYS_FILE line 7`), for messages. */
  source?: string
}

export type ApiKeyCheck = {
  /**
   * The key's id (hex SHA-256 of the key) when `presented` is one of the keys, else undefined.
   * Every configured key is compared, in constant time, whatever matches: neither the answer's
   * timing nor its id reveal which byte differed. The id, never the key, is what the limiter,
   * the quote store and the logs see.
   */
  check: (presented: string | string[] | undefined) => string | undefined
  /** The settings of the key with this id (`{}` for a plain key or an unknown id). */
  settingsOf: (apiKeyId: string) => ApiKeySettings
  /** Every key's settings (no digests), e.g. for the highest fee any key may ask. */
  allSettings: () => ApiKeySettings[]
  /** How many keys are configured. */
  size: number
}

/**
 * The API-key check of the swap surface. Keys are kept only as SHA-256 digests: pass entries
 * (digest and settings, as `loadConfig` reads them) or raw keys, which are hashed at once. A
 * presented key is hashed and compared with every digest by `timingSafeEqual` (equal lengths by
 * construction).
 *
 * @example
 * const keys = createApiKeyCheck({ keys: ['dev-key-0123456789abcdef', { sha256: '9f86…', feeRecipient: '0x…', maxFeeBps: 50 }] })
 * const id = keys.check(request.headers['x-api-key']) // '6e2f…' or undefined
 * keys.settingsOf(id) // { feeRecipient: '0x…', maxFeeBps: 50 } for the second key
 */
export function createApiKeyCheck({ keys }: { keys: readonly (string | ApiKeyEntry)[] }): ApiKeyCheck {
  const entries = new Map<string, ApiKeySettings>()
  for (const key of keys) {
    if (typeof key === 'string') {
      if (key.length > 0 && !entries.has(sha256Hex(key))) entries.set(sha256Hex(key), {})
    } else {
      if (!/^[0-9a-fA-F]{64}$/.test(key.sha256)) throw new Error(`${key.source ?? 'an API key entry'}: sha256 must be 64 hex digits`)
      const { sha256, source: _source, ...settings } = key
      if (!entries.has(sha256.toLowerCase())) entries.set(sha256.toLowerCase(), settings)
    }
  }
  const digests = [...entries.keys()].map((hex) => Buffer.from(hex, 'hex'))
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
    settingsOf: (apiKeyId) => entries.get(apiKeyId) ?? {},
    allSettings: () => [...entries.values()],
  }
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
