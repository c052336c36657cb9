import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'
import type { ApiKeyEntry } from '../http/auth/createApiKeyCheck.ts'
import { feeRecipientProblems } from './feeRecipientProblems.ts'
import { DEFAULT_HOST, DEFAULT_PORT } from './listenAddress.ts'
import { createSecretRedactor } from '../logging/createSecretRedactor.ts'
import { readUpstreamConfig, type UpstreamsConfig } from '../upstream/readUpstreamConfig.ts'
import type { GatewayChainSettings } from '../gateway/chains/GatewayChainSettings.ts'
import { loadGatewayChainConfig } from '../gateway/chains/loadGatewayChainConfig.ts'
import { MAX_CONFIGURABLE_FEE_BPS, MIN_API_KEY_LENGTH, parseApiKeyFile } from './parseApiKeyFile.ts'
import { BaseError } from '../errors/BaseError.ts'

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
  GATEWAY_PORT: Type.Optional(Integer('GATEWAY_PORT', 'TCP port of the launch gateway (0: any free port)', 0, 65_535)),
  METRICS_PORT: Type.Optional(Integer('METRICS_PORT', 'TCP port of GET /metrics, apart from the public API (0: any free port)', 0, 65_535)),
  GATEWAY_DATABASE_URL: Type.Optional(
    Type.String({ minLength: 1, description: 'the gateway read model: a SQLite path or a postgres:// URL (default var/gateway.sqlite)' }),
  ),
  IPFS_API_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#@]+(/[^?#@]*)?$',
      description: "a Kubo node's RPC API (e.g. http://127.0.0.1:5001) the gateway pins metadata documents to; unset: its own blockstore",
    }),
  ),
  GATEWAY_CHAIN_CONFIG: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'JSON file of the chains the launch gateway serves (launchpad addresses, start blocks, nodes); unset: the embedded chains',
    }),
  ),
  IPFS_TIMEOUT_MS: Type.Optional(Integer('IPFS_TIMEOUT_MS', 'deadline of one pin on the Kubo node', 100, 120_000)),
  RPC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 'a real chain (several comma-separated URLs fail over in order); unset: the embedded seeded devnet',
    }),
  ),
  RPC_TIMEOUT_MS: Type.Optional(Integer('RPC_TIMEOUT_MS', 'per-call RPC timeout', 100, 120_000)),
  CHAIN_CONFIG: Type.Optional(
    Type.String({ minLength: 1, description: 'JSON chain config file (deployments with start blocks, pools, deny list); unset: Base' }),
  ),
  POOLS_FILE: Type.Optional(Type.String({ minLength: 1, description: 'JSON file of pools to follow besides discovery' })),
  MARKET_DB_PATH: Type.Optional(Type.String({ minLength: 1, description: 'SQLite file of the discovered pools and scan cursors' })),
  DENY_TOKENS: Type.Optional(
    Type.String({ pattern: '^0x[a-fA-F0-9]{40}(,0x[a-fA-F0-9]{40})*$', description: 'comma-separated tokens whose pools are left out' }),
  ),
  MIN_POOL_LIQUIDITY_WEI: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,40}$', description: 'pools shallower than this many wei of WETH are left out' }),
  ),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'shared quote store and rate limiter; unset: in memory' })),
  GATEWAY_TRUST_PROXY: Type.Optional(
    Type.String({
      pattern: '^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$',
      description:
        "the gateway's proxies whose X-Forwarded-For names the client: false (default), true (any), or comma-separated addresses/CIDRs",
    }),
  ),
  GATEWAY_PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*[^/?#\\s])?$',
      description: "the gateway's public base URL (problem types, Link headers); no trailing slash",
    }),
  ),
  GATEWAY_CURSOR_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        'signs the gateway cursors (every instance the same: cursors survive restarts and cross instances); unset: random per process',
    }),
  ),
  MAX_CONCURRENT_SOLVES: Type.Optional(Integer('MAX_CONCURRENT_SOLVES', 'solves in flight at once, all keys', 1, 100_000)),
  MAX_CONCURRENT_SOLVES_PER_KEY: Type.Optional(
    Integer('MAX_CONCURRENT_SOLVES_PER_KEY', 'solves in flight at once per API key', 1, 100_000),
  ),
  MAX_EVENT_LOOP_DELAY_MS: Type.Optional(
    Integer('MAX_EVENT_LOOP_DELAY_MS', 'event-loop delay above which solves are shed (503); 0: not shed on delay', 0, 60_000),
  ),
  API_KEYS_RELOAD_MS: Type.Optional(
    Integer('API_KEYS_RELOAD_MS', 'how often API_KEYS_FILE is checked for changes (0: never)', 0, 3_600_000),
  ),
  ROUTER_ADDRESS: Type.Optional(Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })),
  FEE_RECIPIENT: Type.Optional(Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })),
  MAX_FEE_BPS: Type.Optional(
    Integer('MAX_FEE_BPS', "highest feeBps a key may ask for (a key's maxFeeBps setting overrides it)", 0, MAX_CONFIGURABLE_FEE_BPS),
  ),
  API_KEYS: Type.Optional(Type.String()),
  API_KEYS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  RATE_LIMIT_PER_MINUTE: Type.Optional(Integer('RATE_LIMIT_PER_MINUTE', 'hits per sliding 60 s window and key', 1, 1_000_000_000)),
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: Type.Optional(
    Integer(
      'UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE',
      'requests without a valid key per sliding 60 s window and source address',
      1,
      1_000_000_000,
    ),
  ),
  QUOTE_TTL_MS: Type.Optional(Integer('QUOTE_TTL_MS', 'quote lifetime', 1, 3_600_000)),
  QUOTE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 16 })),
  QUOTE_CACHE_MAX_ENTRIES: Type.Optional(Integer('QUOTE_CACHE_MAX_ENTRIES', 'quotes kept at most', 1, 10_000_000)),
  QUOTE_CACHE_MAX_BYTES: Type.Optional(Integer('QUOTE_CACHE_MAX_BYTES', 'bytes of quotes kept at most', 1024, 2 ** 40)),
  SOLVER_TIME_BUDGET_MS: Type.Optional(Integer('SOLVER_TIME_BUDGET_MS', 'engine default optimizer budget', 1, 10_000)),
  SOLVER_BACKEND: Type.Optional(OneOf(['native', 'wasm'])),
  MAX_SNAPSHOT_AGE_MS: Type.Optional(
    Integer('MAX_SNAPSHOT_AGE_MS', 'market snapshot older than this: quotes refused (503)', 100, 86_400_000),
  ),
  MARKET_POLL_INTERVAL_MS: Type.Optional(Integer('MARKET_POLL_INTERVAL_MS', 'delay between market refreshes', 10, 600_000)),
  DISCOVERY_CALLS_PER_SECOND: Type.Optional(
    Integer('DISCOVERY_CALLS_PER_SECOND', "the cold start's eth_getLogs calls started per second at most (0: no bound)", 0, 100_000),
  ),
  DISCOVERY_MAX_IN_FLIGHT: Type.Optional(
    Integer('DISCOVERY_MAX_IN_FLIGHT', "the cold start's eth_getLogs calls in flight at once", 1, 256),
  ),
  MAX_LOG_BLOCK_RANGE: Type.Optional(
    Integer('MAX_LOG_BLOCK_RANGE', 'blocks per eth_getLogs at most (discovery starts there and halves on refusals)', 1, 10_000_000),
  ),
  TOKEN_CHECK_WINDOW_BLOCKS: Type.Optional(
    Integer(
      'TOKEN_CHECK_WINDOW_BLOCKS',
      "blocks back over which a pool's token balance must move only by Transfers (0: transfers checked only)",
      0,
      1_000_000,
    ),
  ),
  TOKEN_RECHECK_AFTER_BLOCKS: Type.Optional(
    Integer('TOKEN_RECHECK_AFTER_BLOCKS', "blocks after which a token's verdict (plain or left out) is judged again", 1, 100_000_000),
  ),
  TX_DEADLINE_SEC: Type.Optional(Integer('TX_DEADLINE_SEC', 'router deadline written by /submit, seconds after the call', 1, 86_400)),
  LOG_LEVEL: Type.Optional(OneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
})

/**
 * Default `MAX_FEE_BPS`: 3 %, the ceiling 1inch (`fee` 0..3 %) and OKX (3 % on EVM chains) put on
 * integrator fees; OpenOcean allows up to 5 % (`referrerFee` 0.01..5), 0x up to 10 %. Higher than
 * every fee an integrator of those services can charge would be a trap, lower would refuse
 * fees they accept. docs/http-api.md, "Integrator fees".
 */
export const DEFAULT_MAX_FEE_BPS = 300

/**
 * Default `MIN_POOL_LIQUIDITY_WEI` on a real chain: 1 WETH of depth. Base has tens of thousands of
 * pools, most of them empty or dust; below about a WETH a pool moves no route a taker would use,
 * and every followed pool costs reads each time it changes. docs/real-chain.md, "Liquidity filter".
 */
export const DEFAULT_MIN_POOL_LIQUIDITY_WEI = 10n ** 18n

/** Variables whose value is a secret: a config error names them but never prints the value. */
const SECRET_VARIABLES = new Set(['RPC_URL', 'QUOTE_SIGNING_KEY', 'API_KEYS', 'REDIS_URL', 'IPFS_API_URL', 'GATEWAY_CURSOR_SECRET'])

export type Config = {
  host: string
  port: number
  /** The launch gateway's port (docs/gateway/). */
  gatewayPort: number
  /** `GET /metrics` listens here, on `host`, not on the public API's port. */
  metricsPort: number
  gatewayDatabaseUrl?: string
  /** `GATEWAY_CHAIN_CONFIG`, read and checked: exactly the chains the gateway serves (docs/gateway/chains.md). */
  gatewayChains?: GatewayChainSettings[]
  /** Kubo's RPC API for the gateway's metadata documents; unset: the embedded blockstore (docs/gateway/ipfs.md). */
  ipfsApiUrl?: string
  ipfsTimeoutMs: number
  /** `RPC_URL` as given (one URL, or several comma-separated). */
  rpcUrl?: string
  /** Its URLs, in failover order. */
  rpcUrls: string[]
  rpcTimeoutMs: number
  chainConfigPath?: string
  poolsFile?: string
  /** Where discovery persists (RPC_URL only; default `var/market-<chainId>.sqlite`). */
  marketDbPath?: string
  denyTokens: `0x${string}`[]
  /** Liquidity floor in wei of WETH, decimal (default: 1 WETH with RPC_URL, 0 on the embedded chain). */
  minPoolLiquidityWei: string
  redisUrl?: string
  /** Whose `X-Forwarded-For` the gateway trusts for the client address (its per-source ceilings). */
  gatewayTrustProxy: boolean | string[]
  /** The gateway's public base URL (problem `type`s, `Link` headers); default the address it listens on. */
  gatewayPublicUrl?: string
  /** Signs the gateway's cursors (the same on every instance); default random per process. */
  gatewayCursorSecret?: string
  maxConcurrentSolves: number
  maxConcurrentSolvesPerKey: number
  /** 0: solves are not shed on the event loop's delay (the concurrency bounds still apply). */
  maxEventLoopDelayMs: number
  /** 0: the keys file is read at start only. */
  apiKeysReloadMs: number
  /** `API_KEYS_FILE`, kept for reloading. */
  apiKeysFile?: string
  /** `API_KEYS`'s keys (digests), kept for reloading (the union with the file is valid). */
  apiKeysFromList: ApiKeyEntry[]
  routerAddress?: `0x${string}`
  feeRecipient?: `0x${string}`
  /** The highest `feeBps` of a key without its own `maxFeeBps` (0..9999). */
  maxFeeBps: number
  /** Digests and settings; empty: none configured (the embedded default then generates a development key). */
  apiKeys: ApiKeyEntry[]
  rateLimitPerMinute: number
  /** Requests without a valid key, per source address and sliding 60 s (`UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE`). */
  unauthenticatedRateLimitPerMinute: number
  quoteTtlMs: number
  quoteSigningKey?: string
  quoteCacheMaxEntries: number
  quoteCacheMaxBytes: number
  solverTimeBudgetMs?: number
  solverBackend?: 'native' | 'wasm'
  maxSnapshotAgeMs: number
  marketPollIntervalMs: number
  /** The cold start's RPC budget and range size (docs/real-chain.md, "Discovery"). */
  discoveryCallsPerSecond: number
  discoveryMaxInFlight: number
  maxLogBlockRange: number
  /** The rebasing check's window (docs/real-chain.md, "Fee-on-transfer and rebasing tokens"). */
  tokenCheckWindowBlocks: number
  /** Blocks after which a token's verdict is judged again (docs/real-chain.md, "Re-checks"). */
  tokenRecheckAfterBlocks: number
  txDeadlineSec: number
  logLevel: string
  /** Upstream aggregators for /quote/compare and /quote/split (docs/upstreams.md); none by default. */
  upstreams: UpstreamsConfig
}

/** The configuration cannot start a service; `problems` lists every variable at fault. */
export class ConfigError extends BaseError<'invalid config'> {
  override name = 'ConfigError'
  readonly problems: string[]
  constructor(problems: string[]) {
    super('invalid config', `invalid configuration:\n  ${problems.join('\n  ')}`)
    this.problems = problems
  }
}

/**
 * Reads and checks the environment; throws `ConfigError` naming every bad variable. Unset
 * variables take the documented defaults (docs/http-api.md, "Configuration").
 *
 * @example
 * const config = loadConfig(process.env)
 * // → { host: '127.0.0.1', port: 8080, gatewayPort: 8081, metricsPort: 9464, … } with every variable unset; a ConfigError naming each bad one
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
    if (!problems.some((p) => p.startsWith(`${name}:`))) problems.push(`${name}: ${error.message} (got ${shown(name, relevant[name])})`)
  }
  const e = relevant as Static<typeof ConfigEnv>
  const int = (name: keyof typeof ConfigEnv.properties, fallback: number): number => {
    const raw = e[name] as string | undefined
    if (raw === undefined || problems.some((p) => p.startsWith(`${name}:`))) return fallback
    const [min, max] = ranges[name]
    const n = Number(raw)
    if (!Number.isSafeInteger(n) || n < min || n > max)
      problems.push(`${name}: must be an integer in ${min}..${max} (got ${shown(name, raw)})`)
    return n
  }
  const config: Config = {
    host: e.HOST ?? DEFAULT_HOST,
    port: int('PORT', DEFAULT_PORT),
    // PORT=0 (any free port) means the same for the gateway unless GATEWAY_PORT says otherwise.
    gatewayPort: int('GATEWAY_PORT', e.PORT === '0' ? 0 : 8081),
    // Prometheus exporters' customary port; PORT=0 (any free port) means the same here unless METRICS_PORT says otherwise.
    metricsPort: int('METRICS_PORT', e.PORT === '0' ? 0 : 9464),
    gatewayDatabaseUrl: e.GATEWAY_DATABASE_URL,
    gatewayChains: readGatewayChains(e.GATEWAY_CHAIN_CONFIG, problems),
    ipfsApiUrl: e.IPFS_API_URL,
    ipfsTimeoutMs: int('IPFS_TIMEOUT_MS', 10_000),
    rpcUrl: e.RPC_URL,
    rpcUrls: (e.RPC_URL ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== ''),
    rpcTimeoutMs: int('RPC_TIMEOUT_MS', 5000),
    chainConfigPath: e.CHAIN_CONFIG,
    poolsFile: e.POOLS_FILE,
    marketDbPath: e.MARKET_DB_PATH,
    denyTokens: (e.DENY_TOKENS ?? '').split(',').filter((t) => t !== '') as `0x${string}`[],
    minPoolLiquidityWei: (e.MIN_POOL_LIQUIDITY_WEI !== undefined
      ? BigInt(e.MIN_POOL_LIQUIDITY_WEI)
      : e.RPC_URL
        ? DEFAULT_MIN_POOL_LIQUIDITY_WEI
        : 0n
    ).toString(),
    redisUrl: e.REDIS_URL,
    gatewayTrustProxy: gatewayTrustProxy(e.GATEWAY_TRUST_PROXY),
    gatewayPublicUrl: e.GATEWAY_PUBLIC_URL,
    gatewayCursorSecret: e.GATEWAY_CURSOR_SECRET,
    maxConcurrentSolves: int('MAX_CONCURRENT_SOLVES', 64),
    maxConcurrentSolvesPerKey: int('MAX_CONCURRENT_SOLVES_PER_KEY', 16),
    maxEventLoopDelayMs: int('MAX_EVENT_LOOP_DELAY_MS', 0),
    apiKeysReloadMs: int('API_KEYS_RELOAD_MS', 2000),
    apiKeysFile: e.API_KEYS_FILE,
    apiKeysFromList: [],
    routerAddress: e.ROUTER_ADDRESS as Config['routerAddress'],
    feeRecipient: e.FEE_RECIPIENT as Config['feeRecipient'],
    maxFeeBps: int('MAX_FEE_BPS', DEFAULT_MAX_FEE_BPS),
    apiKeys: [],
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 120),
    unauthenticatedRateLimitPerMinute: int('UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE', 60),
    quoteTtlMs: int('QUOTE_TTL_MS', 30_000),
    quoteSigningKey: e.QUOTE_SIGNING_KEY,
    quoteCacheMaxEntries: int('QUOTE_CACHE_MAX_ENTRIES', 10_000),
    quoteCacheMaxBytes: int('QUOTE_CACHE_MAX_BYTES', 64 * 2 ** 20),
    solverTimeBudgetMs: e.SOLVER_TIME_BUDGET_MS === undefined ? undefined : int('SOLVER_TIME_BUDGET_MS', 0),
    solverBackend: e.SOLVER_BACKEND as Config['solverBackend'],
    maxSnapshotAgeMs: int('MAX_SNAPSHOT_AGE_MS', 10_000),
    marketPollIntervalMs: int('MARKET_POLL_INTERVAL_MS', 500),
    discoveryCallsPerSecond: int('DISCOVERY_CALLS_PER_SECOND', 20),
    discoveryMaxInFlight: int('DISCOVERY_MAX_IN_FLIGHT', 4),
    maxLogBlockRange: int('MAX_LOG_BLOCK_RANGE', 2000),
    tokenCheckWindowBlocks: int('TOKEN_CHECK_WINDOW_BLOCKS', 1800),
    // A day of Base (2 s blocks): docs/real-chain.md, "Re-checks".
    tokenRecheckAfterBlocks: int('TOKEN_RECHECK_AFTER_BLOCKS', 43_200),
    txDeadlineSec: int('TX_DEADLINE_SEC', 300),
    logLevel: e.LOG_LEVEL ?? 'info',
    upstreams: readUpstreamConfig(env, problems),
  }
  const keys = readApiKeys(e.API_KEYS, e.API_KEYS_FILE, problems)
  config.apiKeys = keys
  config.apiKeysFromList = readApiKeys(e.API_KEYS, undefined, [])
  for (const [i, url] of config.rpcUrls.entries()) {
    if (!/^https?:\/\/[^\s,]+$/.test(url)) problems.push(`RPC_URL entry ${i + 1}: not an http(s) URL (got ${shown('RPC_URL', url)})`)
  }
  const feeRecipient = config.feeRecipient?.toLowerCase()
  if (feeRecipient !== undefined && /^0x0{40}$/.test(feeRecipient))
    problems.push('FEE_RECIPIENT: must not be the zero address (the router refuses to pay a fee to it)')
  if (config.routerAddress) problems.push(...feeRecipientProblems({ router: config.routerAddress, feeRecipient, apiKeys: keys }))
  if (config.rpcUrl && !config.routerAddress) problems.push('ROUTER_ADDRESS: required when RPC_URL names a real chain (the /submit target)')
  if (config.rpcUrl && keys.length === 0)
    problems.push(
      'API_KEYS or API_KEYS_FILE: required when RPC_URL names a real chain (a development key is generated only for the embedded chain)',
    )
  if (problems.length) throw new ConfigError(problems)
  return config
}

/** `GATEWAY_CHAIN_CONFIG`'s chains; a file's problems join the others (each with its JSON path). */
function readGatewayChains(path: string | undefined, problems: string[]): GatewayChainSettings[] | undefined {
  if (path === undefined) return undefined
  try {
    return loadGatewayChainConfig({ path })
  } catch (error) {
    problems.push((error as Error).message)
    return undefined
  }
}

/**
 * `GATEWAY_TRUST_PROXY` as Fastify's `trustProxy`: `true` (any proxy: only behind one that
 * overwrites the header), `false`, or the proxies' addresses and CIDRs.
 *
 * @example
 * gatewayTrustProxy('10.0.0.0/8,127.0.0.1') // → ['10.0.0.0/8', '127.0.0.1']; gatewayTrustProxy('true') → true; undefined → false
 */
export function gatewayTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === 'false') return false
  if (raw === 'true') return true
  return raw.split(',')
}

/** A variable's value as a config error may print it: a secret's never (an RPC URL keeps its host). */
function shown(name: string, value: string | undefined): string {
  if (value === undefined || !SECRET_VARIABLES.has(name)) return JSON.stringify(value)
  if (name === 'RPC_URL' || name === 'REDIS_URL' || name === 'IPFS_API_URL')
    return JSON.stringify(createSecretRedactor({ urls: value.split(',') })(value))
  return `${value.length} characters, not shown`
}

/**
 * The keys of `API_KEYS` (comma-separated, plain) and `API_KEYS_FILE` (one per line, with optional
 * settings: parseApiKeyFile), as digests. The same key twice is one key; twice with different
 * settings is an error naming both places.
 */
export function readApiKeys(list: string | undefined, file: string | undefined, problems: string[]): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = []
  const plain = (list ?? '').split(',').map((k) => k.trim())
  plain.forEach((key, i) => {
    if (key === '') return
    if (key.length < MIN_API_KEY_LENGTH) problems.push(`API_KEYS entry ${i + 1}: the key is shorter than ${MIN_API_KEY_LENGTH} characters`)
    else entries.push({ sha256: createHash('sha256').update(key).digest('hex'), source: `API_KEYS entry ${i + 1}` })
  })
  if (file) {
    let text: string | undefined
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      problems.push(`API_KEYS_FILE: cannot read ${file}: ${(error as Error).message}`)
    }
    if (text !== undefined) {
      const parsed = parseApiKeyFile({ text, source: 'API_KEYS_FILE' })
      problems.push(...parsed.problems)
      if (parsed.entries.length === 0 && parsed.problems.length === 0)
        problems.push(`API_KEYS_FILE: ${file} holds no key (one per line, # comments)`)
      entries.push(...parsed.entries)
    }
  }
  const bySha = new Map<string, ApiKeyEntry>()
  for (const entry of entries) {
    const first = bySha.get(entry.sha256)
    if (!first) bySha.set(entry.sha256, entry)
    else if (first.feeRecipient !== entry.feeRecipient || first.maxFeeBps !== entry.maxFeeBps) {
      problems.push(`${entry.source}: the same key as ${first.source}, with other settings`)
    }
  }
  return [...bySha.values()]
}
