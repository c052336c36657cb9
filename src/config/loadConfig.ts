import { readFileSync } from 'node:fs'
import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'

/** Integer variables: the inclusive range each must fall in once converted. */
const ranges: Record<string, [number, number]> = {}
const Integer = (name: string, description: string, minimum: number, maximum: number) => {
  ranges[name] = [minimum, maximum]
  return Type.String({ pattern: '^[0-9]+$', description: `${description} (integer ${minimum}..${maximum})` })
}
const OneOf = (values: string[]) => Type.Unsafe<string>({ type: 'string', enum: values })

/**
 * The service's environment, as a TypeBox schema (strings, as the environment gives them); ranges
 * are checked after conversion. docs/http-api.md has the table.
 */
export const ConfigEnv = Type.Object({
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  PORT: Type.Optional(Integer('PORT', 'TCP port (0: any free port)', 0, 65_535)),
  RPC_URL: Type.Optional(Type.String({ pattern: '^(https?|wss?)://', description: 'a real chain; unset: the embedded seeded devnet' })),
  ROUTER_ADDRESS: Type.Optional(Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })),
  FEE_RECIPIENT: Type.Optional(Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })),
  API_KEYS: Type.Optional(Type.String()),
  API_KEYS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  RATE_LIMIT_PER_MINUTE: Type.Optional(Integer('RATE_LIMIT_PER_MINUTE', 'hits per sliding 60 s window and key', 1, 1_000_000_000)),
  QUOTE_TTL_MS: Type.Optional(Integer('QUOTE_TTL_MS', 'quote lifetime', 1, 3_600_000)),
  QUOTE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 16 })),
  QUOTE_CACHE_MAX_ENTRIES: Type.Optional(Integer('QUOTE_CACHE_MAX_ENTRIES', 'quotes kept at most', 1, 10_000_000)),
  QUOTE_CACHE_MAX_BYTES: Type.Optional(Integer('QUOTE_CACHE_MAX_BYTES', 'bytes of quotes kept at most', 1024, 2 ** 40)),
  SOLVER_TIME_BUDGET_MS: Type.Optional(Integer('SOLVER_TIME_BUDGET_MS', 'engine default optimizer budget', 1, 10_000)),
  SOLVER_BACKEND: Type.Optional(OneOf(['native', 'wasm'])),
  MAX_SNAPSHOT_AGE_MS: Type.Optional(Integer('MAX_SNAPSHOT_AGE_MS', 'market snapshot older than this: quotes refused (503)', 100, 86_400_000)),
  MARKET_POLL_INTERVAL_MS: Type.Optional(Integer('MARKET_POLL_INTERVAL_MS', 'delay between market refreshes', 10, 600_000)),
  TX_DEADLINE_SEC: Type.Optional(Integer('TX_DEADLINE_SEC', 'router deadline written by /submit, seconds after the call', 1, 86_400)),
  LOG_LEVEL: Type.Optional(OneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
})

export type Config = {
  host: string
  port: number
  rpcUrl?: string
  routerAddress?: `0x${string}`
  feeRecipient?: `0x${string}`
  /** Empty: none configured (the embedded default then generates a development key). */
  apiKeys: string[]
  rateLimitPerMinute: number
  quoteTtlMs: number
  quoteSigningKey?: string
  quoteCacheMaxEntries: number
  quoteCacheMaxBytes: number
  solverTimeBudgetMs?: number
  solverBackend?: 'native' | 'wasm'
  maxSnapshotAgeMs: number
  marketPollIntervalMs: number
  txDeadlineSec: number
  logLevel: string
}

/** The configuration cannot start a service; `problems` lists every variable at fault. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`)
    this.problems = problems
  }
}

/**
 * Reads and checks the environment; throws `ConfigError` naming every bad variable. Unset
 * variables take the documented defaults (docs/http-api.md, "Configuration").
 *
 * @example
 * const config = loadConfig(process.env)
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const relevant: Record<string, string> = {}
  for (const name of Object.keys(ConfigEnv.properties)) {
    const value = env[name]
    if (value !== undefined && value !== '') relevant[name] = value
  }
  const problems: string[] = []
  for (const error of Value.Errors(ConfigEnv, relevant)) {
    const name = error.instancePath.replace(/^\//, '')
    if (!problems.some((p) => p.startsWith(`${name}:`))) problems.push(`${name}: ${error.message} (got ${JSON.stringify(relevant[name])})`)
  }
  const e = relevant as Static<typeof ConfigEnv>
  const int = (name: keyof typeof ConfigEnv.properties, fallback: number): number => {
    const raw = e[name] as string | undefined
    if (raw === undefined || problems.some((p) => p.startsWith(`${name}:`))) return fallback
    const [min, max] = ranges[name]
    const n = Number(raw)
    if (!Number.isSafeInteger(n) || n < min || n > max) problems.push(`${name}: must be an integer in ${min}..${max} (got ${JSON.stringify(raw)})`)
    return n
  }
  const config: Config = {
    host: e.HOST ?? '127.0.0.1',
    port: int('PORT', 8080),
    rpcUrl: e.RPC_URL,
    routerAddress: e.ROUTER_ADDRESS as Config['routerAddress'],
    feeRecipient: e.FEE_RECIPIENT as Config['feeRecipient'],
    apiKeys: [],
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 120),
    quoteTtlMs: int('QUOTE_TTL_MS', 30_000),
    quoteSigningKey: e.QUOTE_SIGNING_KEY,
    quoteCacheMaxEntries: int('QUOTE_CACHE_MAX_ENTRIES', 10_000),
    quoteCacheMaxBytes: int('QUOTE_CACHE_MAX_BYTES', 64 * 2 ** 20),
    solverTimeBudgetMs: e.SOLVER_TIME_BUDGET_MS === undefined ? undefined : int('SOLVER_TIME_BUDGET_MS', 0),
    solverBackend: e.SOLVER_BACKEND as Config['solverBackend'],
    maxSnapshotAgeMs: int('MAX_SNAPSHOT_AGE_MS', 10_000),
    marketPollIntervalMs: int('MARKET_POLL_INTERVAL_MS', 500),
    txDeadlineSec: int('TX_DEADLINE_SEC', 300),
    logLevel: e.LOG_LEVEL ?? 'info',
  }
  const keys = (e.API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean)
  if (e.API_KEYS_FILE) {
    try {
      keys.push(...readFileSync(e.API_KEYS_FILE, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')))
    } catch (error) {
      problems.push(`API_KEYS_FILE: cannot read ${e.API_KEYS_FILE}: ${(error as Error).message}`)
    }
    if (keys.length === 0 && !problems.some((p) => p.startsWith('API_KEYS_FILE'))) problems.push(`API_KEYS_FILE: ${e.API_KEYS_FILE} holds no key (one per line, # comments)`)
  }
  if (keys.some((k) => k.length < 16)) problems.push('API_KEYS / API_KEYS_FILE: every key must be at least 16 characters')
  config.apiKeys = keys
  if (config.rpcUrl && !config.routerAddress) problems.push('ROUTER_ADDRESS: required when RPC_URL names a real chain (the /submit target)')
  if (config.rpcUrl && keys.length === 0) problems.push('API_KEYS or API_KEYS_FILE: required when RPC_URL names a real chain (a development key is generated only for the embedded chain)')
  if (problems.length) throw new ConfigError(problems)
  return config
}
