import { readFileSync, statSync } from 'node:fs'
import { type ApiKeyCheck, type ApiKeyEntry, createApiKeyCheck } from '../http/auth/createApiKeyCheck.ts'
import { parseApiKeyFile } from './parseApiKeyFile.ts'

export type CreateReloadingApiKeyCheckParameters = {
  /** `API_KEYS_FILE`: re-read when its modification time or size changes. */
  file: string
  /** The keys of `API_KEYS` (fixed until a restart); the valid keys are their union with the file's. */
  fixed: readonly ApiKeyEntry[]
  /** The file as read at start (already checked by `loadConfig`). */
  initial: readonly ApiKeyEntry[]
  /** How often the file is looked at, ms. */
  intervalMs: number
  /** Told of each reload and each refused file (line numbers, never a key). */
  log: (line: string) => void
}

/**
 * An API key check whose keys follow `API_KEYS_FILE` while the service runs: every `intervalMs`
 * the file's modification time and size are compared, and a changed file is parsed like at start.
 * A valid file replaces the keys at once (an added key works, a removed key is revoked, changed
 * settings apply to the next quote); a file with a bad line is refused whole and the keys stay as
 * they were, with the line numbers logged. Rotation with an overlap (spec §5.4): add the new key,
 * let both work, remove the old one when the overlap ends. Every instance reading the same file
 * follows it; docs/scaling.md.
 *
 * @example
 * const keys = createReloadingApiKeyCheck({ file: 'keys.txt', fixed: [], initial, intervalMs: 2000, log: console.log })
 * keys.check(request.headers['x-api-key']) // → the key's id, or undefined; edits to keys.txt take effect within 2 s
 */
export function createReloadingApiKeyCheck({
  file,
  fixed,
  initial,
  intervalMs,
  log,
}: CreateReloadingApiKeyCheckParameters): ApiKeyCheck & { close: () => void; reload: () => boolean } {
  let current = createApiKeyCheck({ keys: [...fixed, ...initial] })
  const stamp = () => {
    try {
      const s = statSync(file)
      return `${s.mtimeMs} ${s.size}`
    } catch {
      return 'missing'
    }
  }
  let seen = stamp()
  const reload = (): boolean => {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      log(`API_KEYS_FILE: cannot read ${file} (${(error as Error).message}): keys unchanged`)
      return false
    }
    const parsed = parseApiKeyFile({ text, source: 'API_KEYS_FILE' })
    if (parsed.problems.length > 0) {
      log(`API_KEYS_FILE: refused, keys unchanged: ${parsed.problems.join('; ')}`)
      return false
    }
    if (parsed.entries.length === 0 && fixed.length === 0) {
      log('API_KEYS_FILE: holds no key; keys unchanged (a service without any key would refuse every call)')
      return false
    }
    current = createApiKeyCheck({ keys: [...fixed, ...parsed.entries] })
    log(`API_KEYS_FILE: reloaded, ${current.size} keys valid`)
    return true
  }
  const timer = setInterval(() => {
    const now = stamp()
    if (now === seen) return
    seen = now
    reload()
  }, intervalMs)
  timer.unref()
  return {
    check: (presented) => current.check(presented),
    settingsOf: (apiKeyId) => current.settingsOf(apiKeyId),
    allSettings: () => current.allSettings(),
    get size() {
      return current.size
    },
    reload,
    close: () => clearInterval(timer),
  }
}
