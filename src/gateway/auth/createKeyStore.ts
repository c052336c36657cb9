import { timingSafeEqual } from 'node:crypto'
import type { PlanLimits, PlanName } from '../limits/plans.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import type { ApiKeyRecord, ApiKeyStatus } from './ApiKeyRecord.ts'
import { generateApiKey, hashApiKeySecret, type ParsedApiKey } from './apiKeyFormat.ts'
import type { Scope } from './scopes.ts'

/** Spec §5.4: a valid key's authorization metadata is cached at most 5 s, an unknown prefix 2 s. */
export const KEY_CACHE_TTL_MS = 5_000
export const UNKNOWN_PREFIX_TTL_MS = 2_000

type Row = {
  prefix: string
  environment: string
  secret_sha256: string
  status: string
  plan: string
  custom_limits: string | null
  scopes: string
  allowed_origins: string
  owner: string
  label: string
  created_at: string
  expires_at: string | null
  revoked_at: string | null
}

/** Why a presented key is refused (all `invalid_api_key`; the detail says which). */
export type KeyRefusal = 'unknown' | 'secret' | 'inactive' | 'revoked' | 'expired'

export type KeyStore = {
  /**
   * The key for a parsed presentation: from the cache when fresh, else from the database
   * (`cached: false`: an uncached lookup, which the per-source ceiling counts; a request that
   * joins a read already under way is `cached: true`). `admit` runs before a database read (the
   * per-source ceiling: it throws to refuse); the read is registered before `admit` is awaited,
   * so concurrent requests for one prefix join it instead of each being charged. A joiner whose
   * shared read failed (refused by another's `admit`, or the database) tries on its own.
   */
  lookup: (prefix: string, admit?: () => Promise<void>) => Promise<{ record?: ApiKeyRecord; cached: boolean }>
  /** Whether a cached entry (known or unknown), or a read under way, answers this prefix now. */
  isCached: (prefix: string) => boolean
  /** A parsed key against its record: the secret (constant time), the status, the expiry. */
  verify: (parsed: ParsedApiKey, record: ApiKeyRecord | undefined) => { record: ApiKeyRecord } | { refusal: KeyRefusal }
  create: (input: CreateKeyInput) => Promise<{ key: string; record: ApiKeyRecord }>
  /**
   * Sets a key's status. A revocation is final: a revoked key is never made active or inactive
   * again (`revoked`: nothing changed); `missing`: no such key.
   */
  setStatus: (prefix: string, status: ApiKeyStatus) => Promise<'changed' | 'missing' | 'revoked'>
  list: () => Promise<ApiKeyRecord[]>
}

export type CreateKeyInput = {
  environment?: 'live' | 'test'
  plan: PlanName
  customLimits?: PlanLimits
  scopes: readonly Scope[]
  allowedOrigins?: readonly string[]
  owner: string
  label?: string
  expiresAt?: string
}

/**
 * The gateway's key store over the database, with the caches of spec §5.4: a known key's record
 * for 5 s (a revocation takes effect within 5 s), an unknown prefix for 2 s. The secret is
 * compared by its SHA-256 in constant time.
 *
 * @example
 * const keys = createKeyStore({ db })
 * const { key } = await keys.create({ plan: 'developer', scopes: ['tokens:read'], owner: 'ops@example.com' })
 * // → key 'gw_live_<prefix>_<secret>', shown once: the store keeps only the secret's SHA-256
 */
export function createKeyStore({ db, now = Date.now }: { db: SqlDatabase; now?: () => number }): KeyStore {
  const cache = new Map<string, { record?: ApiKeyRecord; expiresAt: number }>()
  const fromRow = (row: Row): ApiKeyRecord => ({
    prefix: row.prefix,
    environment: row.environment as ApiKeyRecord['environment'],
    secretSha256: row.secret_sha256,
    status: row.status as ApiKeyStatus,
    plan: row.plan as PlanName,
    customLimits: row.custom_limits ? (JSON.parse(row.custom_limits) as PlanLimits) : undefined,
    scopes: new Set(row.scopes.split(' ').filter(Boolean) as Scope[]),
    allowedOrigins: new Set(row.allowed_origins.split(' ').filter(Boolean)),
    owner: row.owner,
    label: row.label,
    createdAt: row.created_at,
    expiresAt: row.expires_at ?? undefined,
    revokedAt: row.revoked_at ?? undefined,
  })
  // One database read per prefix at a time: requests arriving while it runs share it (a busy key
  // whose cache entry lapsed is read once, not once per concurrent request).
  const pending = new Map<string, Promise<ApiKeyRecord | undefined>>()
  const isCached = (prefix: string) => (cache.get(prefix)?.expiresAt ?? 0) > now() || pending.has(prefix)
  const read = async (prefix: string, admit?: () => Promise<void>) => {
    try {
      await admit?.()
      const [row] = await db.query<Row>('SELECT * FROM api_keys WHERE prefix = $1', [prefix])
      const record = row ? fromRow(row) : undefined
      cache.set(prefix, { record, expiresAt: now() + (record ? KEY_CACHE_TTL_MS : UNKNOWN_PREFIX_TTL_MS) })
      if (cache.size > 100_000) for (const [p, e] of cache) if (e.expiresAt <= now()) cache.delete(p)
      return record
    } finally {
      pending.delete(prefix)
    }
  }
  return {
    isCached,
    lookup: async (prefix, admit) => {
      for (;;) {
        const hit = cache.get(prefix)
        if (hit && hit.expiresAt > now()) return { record: hit.record, cached: true }
        const shared = pending.get(prefix)
        if (shared) {
          const joined = await shared.then(
            (record) => ({ record }),
            () => undefined,
          )
          if (joined) return { ...joined, cached: true }
          continue
        }
        const reading = read(prefix, admit)
        pending.set(prefix, reading)
        return { record: await reading, cached: false }
      }
    },
    verify: (parsed, record) => {
      if (!record) return { refusal: 'unknown' }
      const presented = Buffer.from(hashApiKeySecret(parsed.secret), 'hex')
      const stored = Buffer.from(record.secretSha256, 'hex')
      if (stored.length !== presented.length || !timingSafeEqual(stored, presented) || record.environment !== parsed.environment)
        return { refusal: 'secret' }
      if (record.status === 'revoked') return { refusal: 'revoked' }
      if (record.status !== 'active') return { refusal: 'inactive' }
      if (record.expiresAt && Date.parse(record.expiresAt) <= now()) return { refusal: 'expired' }
      return { record }
    },
    create: async ({ environment = 'live', plan, customLimits, scopes, allowedOrigins = [], owner, label = '', expiresAt }) => {
      if (plan === 'partner' && !customLimits) throw new Error('a partner key needs its custom limits')
      for (;;) {
        const { key, prefix, secretSha256 } = generateApiKey({ environment })
        const createdAt = new Date(now()).toISOString()
        const inserted = await db.execute(
          `INSERT INTO api_keys (prefix, environment, secret_sha256, status, plan, custom_limits, scopes, allowed_origins, owner, label, created_at, expires_at)
           VALUES ($1, $2, $3, 'active', $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (prefix) DO NOTHING`,
          [
            prefix,
            environment,
            secretSha256,
            plan,
            customLimits ? JSON.stringify(customLimits) : null,
            scopes.join(' '),
            allowedOrigins.join(' '),
            owner,
            label,
            createdAt,
            expiresAt ?? null,
          ],
        )
        // A prefix collision (60 random bits) is drawn again.
        if (inserted === 0) continue
        cache.delete(prefix)
        const [row] = await db.query<Row>('SELECT * FROM api_keys WHERE prefix = $1', [prefix])
        return { key, record: fromRow(row) }
      }
    },
    setStatus: async (prefix, status) => {
      // One conditional statement: a revocation racing an activation is never undone by it.
      const changed = await db.execute("UPDATE api_keys SET status = $1, revoked_at = $2 WHERE prefix = $3 AND status <> 'revoked'", [
        status,
        status === 'revoked' ? new Date(now()).toISOString() : null,
        prefix,
      ])
      if (changed > 0) return 'changed'
      const [row] = await db.query<{ status: string }>('SELECT status FROM api_keys WHERE prefix = $1', [prefix])
      return row ? 'revoked' : 'missing'
    },
    list: async () => (await db.query<Row>('SELECT * FROM api_keys ORDER BY created_at')).map(fromRow),
  }
}
