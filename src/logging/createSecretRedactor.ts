import { createHash } from 'node:crypto'

/** Returns `text` with every configured secret replaced by `[redacted]`. */
export type SecretRedactor = (text: string) => string

export type CreateSecretRedactorParameters = {
  /**
   * URLs whose credentials are secret (RPC_URL): the user and password, every path segment, the
   * query and the fragment. The scheme, host and port stay readable.
   */
  urls?: readonly (string | undefined)[]
  /** Strings secret as a whole (QUOTE_SIGNING_KEY). */
  secrets?: readonly (string | undefined)[]
  /**
   * Lowercase hex SHA-256 digests of the API keys: the keys themselves are never held, so a key is
   * recognised as a token of the text (a run of characters between separators) whose digest is
   * one of these.
   */
  apiKeyDigests?: readonly string[]
}

export const REDACTED = '[redacted]'

/**
 * A piece of a URL shorter than this is not redacted on its own (only inside the whole URL):
 * `v2`, `rpc` or `base` would otherwise vanish from every line. Hosted providers' keys are 20+
 * characters.
 */
const MIN_PIECE_LENGTH = 8
/** API keys are at least 16 characters (config rule); shorter tokens are never hashed. */
const MIN_API_KEY_LENGTH = 16
/** Tokens: split at whitespace, quotes, JSON and URL punctuation (a key in `?key=…`, in `"…"`, after `Bearer `). */
const FINE_TOKENS = /[^\s"'`,;&?=:/\\()[\]{}<>|]+/g
/** Coarser tokens for keys that contain `=`, `/`, `:` (base64 keys, for one). */
const COARSE_TOKENS = /[^\s"'`,;&?\\()[\]{}<>|]+/g

/**
 * The one redaction every log path of the service goes through (pino's `streamWrite` hook, the
 * market's log lines and `lastError`, the start-up failure and the banner): the configured
 * secrets (RPC URLs with a key in the path, the query or the user info, the quote signing key,
 * the API keys) are replaced by `[redacted]`, also where they appear JSON-escaped or
 * percent-encoded; a URL keeps its scheme and host, so the log still says which node failed.
 *
 * @example
 * const redact = createSecretRedactor({ urls: ['https://base-mainnet.g.alchemy.com/v2/abcdef0123456789'] })
 * redact('HTTP request failed. URL: https://base-mainnet.g.alchemy.com/v2/abcdef0123456789')
 * // 'HTTP request failed. URL: https://base-mainnet.g.alchemy.com/[redacted]'
 */
export function createSecretRedactor({ urls = [], secrets = [], apiKeyDigests = [] }: CreateSecretRedactorParameters): SecretRedactor {
  // Whole URLs first (longest first in the alternation), then their pieces wherever they appear.
  const replacements = new Map<string, string>()
  for (const raw of urls) if (raw) for (const [text, replacement] of urlReplacements(raw)) replacements.set(text, replacement)
  for (const secret of secrets) if (secret) replacements.set(secret, REDACTED)
  for (const [text, replacement] of [...replacements]) {
    for (const variant of [JSON.stringify(text).slice(1, -1), encodeURIComponent(text)])
      if (!replacements.has(variant)) replacements.set(variant, replacement)
  }
  const texts = [...replacements.keys()].filter((t) => t.length > 0).sort((a, b) => b.length - a.length)
  const pattern = texts.length > 0 ? new RegExp(texts.map(escapeRegExp).join('|'), 'g') : undefined
  const digests = new Set(apiKeyDigests.map((d) => d.toLowerCase()))

  const redactKeys = (text: string): string => {
    if (digests.size === 0) return text
    const replaceKey = (token: string): string =>
      token.length >= MIN_API_KEY_LENGTH && digests.has(createHash('sha256').update(token).digest('hex')) ? REDACTED : token
    return text.replace(COARSE_TOKENS, replaceKey).replace(FINE_TOKENS, replaceKey)
  }
  return (text) => redactKeys(pattern ? text.replace(pattern, (found) => replacements.get(found) ?? REDACTED) : text)
}

/** What to replace for one URL: the URL in the forms viem and `URL` print it, then its secret pieces. */
function urlReplacements(raw: string): [string, string][] {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return [[raw, REDACTED]]
  }
  const user = url.username
  const password = url.password
  const segments = url.pathname.split('/').filter(Boolean)
  const query = url.search.slice(1)
  const fragment = url.hash.slice(1)
  if (!user && !password && segments.length === 0 && !query && !fragment) return []

  const readable = `${url.protocol}//${url.host}/${REDACTED}`
  const withoutCredentials = new URL(raw)
  withoutCredentials.username = ''
  withoutCredentials.password = ''
  const whole = new Set([raw, url.href, withoutCredentials.href, withoutCredentials.href.replace(/\/$/, '')])
  const out: [string, string][] = [...whole].map((text) => [text, readable])

  const pieces = new Set<string>()
  if (user || password) {
    const decoded = `${safeDecode(user)}:${safeDecode(password)}`
    // viem sends URL credentials as `Authorization: Basic base64(user:password)`.
    out.push([Buffer.from(decoded).toString('base64'), REDACTED])
    if (password) for (const text of [`${user}:${password}`, decoded]) out.push([text, REDACTED])
  }
  const candidates = [user, password, ...segments, fragment]
  for (const pair of query.split('&').filter(Boolean)) {
    const [name, value = ''] = pair.split('=')
    out.push([pair, `${name}=${REDACTED}`])
    candidates.push(value)
  }
  for (const candidate of candidates)
    for (const text of [candidate, safeDecode(candidate)]) if (text.length >= MIN_PIECE_LENGTH) pieces.add(text)
  for (const piece of pieces) out.push([piece, REDACTED])
  return out
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
