import { createHash, randomBytes } from 'node:crypto'

/** `gw_<environment>_<prefix>_<secret>`: the prefix finds the key, only a hash of the secret is stored. */
export const API_KEY_PATTERN = /^gw_(live|test)_([a-z2-7]{12})_([0-9a-f]{32})$/

export type ParsedApiKey = { environment: 'live' | 'test'; prefix: string; secret: string }

/**
 * Splits a presented key into its parts, or undefined when it is not of the gateway's format
 * (answered `invalid_api_key` without any lookup).
 *
 * @example
 * parseApiKey('gw_live_abcdefghijkl_00112233445566778899aabbccddeeff') // { environment: 'live', prefix: 'abcdefghijkl', secret: '0011…' }
 */
export function parseApiKey(presented: string): ParsedApiKey | undefined {
  const match = API_KEY_PATTERN.exec(presented)
  return match ? { environment: match[1] as 'live' | 'test', prefix: match[2], secret: match[3] } : undefined
}

/**
 * A new key: a 12-character base32 prefix (60 bits: unique in practice, checked by the store) and
 * a 128-bit hex secret; with the hash the store keeps.
 *
 * @example
 * const { key, prefix, secretSha256 } = generateApiKey({ environment: 'live' })
 * // → key 'gw_live_<prefix>_<32 hex>', prefix: 12 base32 characters, secretSha256: 64 hex
 */
export function generateApiKey({ environment }: { environment: 'live' | 'test' }): { key: string; prefix: string; secretSha256: string } {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const prefix = [...randomBytes(12)].map((b) => alphabet[b & 31]).join('')
  const secret = randomBytes(16).toString('hex')
  return { key: `gw_${environment}_${prefix}_${secret}`, prefix, secretSha256: hashApiKeySecret(secret) }
}

/**
 * SHA-256 of a key's secret (hex). A fast hash suffices: the secret is 128 random bits, not a
 * password, so a stolen hash cannot be guessed back.
 *
 * @example
 * hashApiKeySecret('00112233445566778899aabbccddeeff')
 * // → '5947d7c33d783f94b3b4c1a96ebc8991ed28f1b069b71e03376cba8caa98a720'
 */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}
