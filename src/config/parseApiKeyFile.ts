import { createHash } from 'node:crypto'
import { type Address, getAddress, isAddress, zeroAddress } from 'viem'
import type { ApiKeyEntry } from '../http/auth/createApiKeyCheck.ts'

/** Keys shorter than this are refused (a guessable key is no key). */
export const MIN_API_KEY_LENGTH = 16
/** The highest integrator fee anyone may configure: a 100 % fee would leave the recipient nothing. */
export const MAX_CONFIGURABLE_FEE_BPS = 9_999

export type ParseApiKeyFileParameters = {
  /** The file's text. */
  text: string
  /** How messages name the file, e.g. `API_KEYS_FILE`. */
  source: string
}

export type ParseApiKeyFileReturnType = {
  /** One entry per key line, in file order (digests only). */
  entries: ApiKeyEntry[]
  /** One message per bad line, naming the line and never printing the key. */
  problems: string[]
}

const settingNames = ['feeRecipient', 'maxFeeBps'] as const

/**
 * Parses an API key file: one key per line, optionally followed by settings, blank lines and
 * `#` comments ignored (a `#` word after the key starts a comment too):
 *
 * ```
 * # key                          settings (each optional)
 * 3f0c9a1e5b7d2c4f8a6e0b1d9c3f5a7e
 * partner-a-2b7e151628aed2a6abf7  feeRecipient=0x000000000000000000000000000000000000bEEF maxFeeBps=50
 * ```
 *
 * `feeRecipient` (an address, not zero) receives that key's integrator fees instead of
 * `FEE_RECIPIENT`; `maxFeeBps` (0..9999) caps that key's `feeBps` instead of `MAX_FEE_BPS`. A key
 * is hashed (SHA-256) as soon as it is read; a bad line is reported by its number, never with
 * the key in the message.
 *
 * @example
 * parseApiKeyFile({ text: 'partner-a-2b7e151628aed2a6abf7 maxFeeBps=50\n', source: 'API_KEYS_FILE' })
 * // { entries: [{ sha256: '…', maxFeeBps: 50, source: 'API_KEYS_FILE line 1' }], problems: [] }
 */
export function parseApiKeyFile({ text, source }: ParseApiKeyFileParameters): ParseApiKeyFileReturnType {
  const entries: ApiKeyEntry[] = []
  const problems: string[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const where = `${source} line ${i + 1}`
    const words = lines[i].trim().split(/\s+/).filter(Boolean)
    const comment = words.findIndex((w) => w.startsWith('#'))
    if (comment >= 0) words.length = comment
    if (words.length === 0) continue
    const [key, ...settings] = words
    const lineProblems: string[] = []
    if (key.length < MIN_API_KEY_LENGTH) lineProblems.push(`the key is shorter than ${MIN_API_KEY_LENGTH} characters`)
    const entry: ApiKeyEntry = { sha256: createHash('sha256').update(key).digest('hex'), source: where }
    for (const [index, setting] of settings.entries()) {
      const eq = setting.indexOf('=')
      // A word without `=` may be the second half of a key that contains a space: never echo it.
      if (eq <= 0) {
        lineProblems.push(
          `word ${index + 2} is not a name=value setting (keys cannot contain spaces; settings: ${settingNames.join(', ')})`,
        )
        continue
      }
      const name = setting.slice(0, eq)
      const value = setting.slice(eq + 1)
      if (!(settingNames as readonly string[]).includes(name)) {
        lineProblems.push(`unknown setting ${JSON.stringify(name.slice(0, 40))} (settings: ${settingNames.join(', ')})`)
      } else if (entry[name as (typeof settingNames)[number]] !== undefined) {
        lineProblems.push(`${name} is given twice`)
      } else if (name === 'feeRecipient') {
        if (!isAddress(value, { strict: false })) lineProblems.push(`feeRecipient: not an address: ${JSON.stringify(value.slice(0, 64))}`)
        else if (getAddress(value) === zeroAddress) lineProblems.push('feeRecipient: must not be the zero address')
        else entry.feeRecipient = getAddress(value) as Address
      } else {
        const bps = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN
        if (!(bps <= MAX_CONFIGURABLE_FEE_BPS))
          lineProblems.push(`maxFeeBps: must be an integer in 0..${MAX_CONFIGURABLE_FEE_BPS}: ${JSON.stringify(value.slice(0, 20))}`)
        else entry.maxFeeBps = bps
      }
    }
    if (lineProblems.length > 0) problems.push(...lineProblems.map((p) => `${where}: ${p}`))
    else entries.push(entry)
  }
  return { entries, problems }
}
