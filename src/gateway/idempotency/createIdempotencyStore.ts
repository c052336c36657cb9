import { randomBytes } from 'node:crypto'
import type { SqlDatabase } from '../store/SqlDatabase.ts'

/** Spec §8: an Idempotency-Key is kept 24 hours. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000
/**
 * How long a running request holds its key. A process killed mid-request leaves its entry
 * `running`; once the lease ends, the same request may claim it again. Every prepare route
 * finishes well within it (each chain read has its own deadline, `liveReadTimeoutMs`).
 */
export const IDEMPOTENCY_LEASE_MS = 60_000

/** A response kept for replay: status, the headers the route produced, the body as sent. */
export type StoredResponse = { status: number; headers: Record<string, string>; body: string }

/** What claiming a key for one request found. */
export type IdempotencyClaim =
  /** The request runs: it holds the key under `leaseId` until it completes or abandons it. */
  | { kind: 'claimed'; leaseId: string }
  /** The same request completed before: its response, to be sent again. */
  | { kind: 'replay'; response: StoredResponse }
  /** The same request is running under another lease (`idempotency_in_progress`). */
  | { kind: 'in_progress' }
  /** The key was used with other input within 24 hours (`idempotency_key_reused`). */
  | { kind: 'reused' }

export type IdempotencyStore = {
  /** Claims `key` of API key `keyPrefix` for a request of `fingerprint` (one atomic step per outcome). */
  claim: (input: { keyPrefix: string; key: string; fingerprint: string }) => Promise<IdempotencyClaim>
  /** Whether `claim` would replay a completed response now (read only: the limiter then spares the replay its safety ceilings). */
  isReplay: (input: { keyPrefix: string; key: string; fingerprint: string }) => Promise<boolean>
  /** Keeps the response of a claimed request (only while the lease is still this request's). */
  complete: (input: { keyPrefix: string; key: string; leaseId: string; response: StoredResponse }) => Promise<void>
  /** Frees a claimed key without a response (a 5xx, an aborted request): the same request may run again. */
  abandon: (input: { keyPrefix: string; key: string; leaseId: string }) => Promise<void>
  /** Deletes entries older than 24 hours; returns how many. */
  purge: () => Promise<number>
}

type Row = {
  fingerprint: string
  state: string
  lease_id: string
  lease_until: number
  expires_at: number
  status: number | null
  headers: string | null
  body: string | null
}

/**
 * Idempotency entries in the gateway's store (SQLite or PostgreSQL: `003_idempotency.sql`), so a
 * replay survives a restart and, on PostgreSQL, is shared by every instance. Every transition is
 * one conditional statement (insert if absent, update if the lease or fingerprint is as read), so
 * of 100 concurrent identical requests exactly one claims the key.
 *
 * @example
 * const store = createIdempotencyStore({ db })
 * const claim = await store.claim({ keyPrefix, key: 'b3c1…', fingerprint })
 * // → { kind: 'claimed', leaseId } the first time; { kind: 'replay', response } once completed; { kind: 'in_progress' } meanwhile; { kind: 'reused' } for another body
 */
export function createIdempotencyStore({
  db,
  now = Date.now,
  leaseMs = IDEMPOTENCY_LEASE_MS,
}: {
  db: SqlDatabase
  now?: () => number
  leaseMs?: number
}): IdempotencyStore {
  const claim: IdempotencyStore['claim'] = async ({ keyPrefix, key, fingerprint }) => {
    // A lost race (another request changed the row between our read and our write) reads again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const t = now()
      const leaseId = randomBytes(12).toString('hex')
      const inserted = await db.execute(
        `INSERT INTO idempotency_entries (key_prefix, idempotency_key, fingerprint, state, lease_id, lease_until, expires_at)
         VALUES ($1, $2, $3, 'running', $4, $5, $6) ON CONFLICT (key_prefix, idempotency_key) DO NOTHING`,
        [keyPrefix, key, fingerprint, leaseId, t + leaseMs, t + IDEMPOTENCY_RETENTION_MS],
      )
      if (inserted === 1) return { kind: 'claimed', leaseId }
      const [row] = await db.query<Row>('SELECT * FROM idempotency_entries WHERE key_prefix = $1 AND idempotency_key = $2', [
        keyPrefix,
        key,
      ])
      if (!row) continue
      const expired = Number(row.expires_at) <= t
      if (!expired && row.fingerprint !== fingerprint) return { kind: 'reused' }
      if (!expired && row.state === 'done')
        return {
          kind: 'replay',
          response: {
            status: Number(row.status),
            headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
            body: row.body ?? '',
          },
        }
      if (!expired && Number(row.lease_until) > t) return { kind: 'in_progress' }
      // Expired (a new 24 hours begins) or abandoned by a process that died: taken over, if still as read.
      const taken = await db.execute(
        `UPDATE idempotency_entries SET fingerprint = $1, state = 'running', lease_id = $2, lease_until = $3, expires_at = $4, status = NULL, headers = NULL, body = NULL
         WHERE key_prefix = $5 AND idempotency_key = $6 AND lease_id = $7`,
        [fingerprint, leaseId, t + leaseMs, expired ? t + IDEMPOTENCY_RETENTION_MS : Number(row.expires_at), keyPrefix, key, row.lease_id],
      )
      if (taken === 1) return { kind: 'claimed', leaseId }
    }
    return { kind: 'in_progress' }
  }
  return {
    claim,
    isReplay: async ({ keyPrefix, key, fingerprint }) => {
      const [row] = await db.query<Row>('SELECT * FROM idempotency_entries WHERE key_prefix = $1 AND idempotency_key = $2', [
        keyPrefix,
        key,
      ])
      return !!row && row.state === 'done' && row.fingerprint === fingerprint && Number(row.expires_at) > now()
    },
    complete: async ({ keyPrefix, key, leaseId, response }) => {
      await db.execute(
        `UPDATE idempotency_entries SET state = 'done', status = $1, headers = $2, body = $3 WHERE key_prefix = $4 AND idempotency_key = $5 AND lease_id = $6`,
        [response.status, JSON.stringify(response.headers), response.body, keyPrefix, key, leaseId],
      )
    },
    abandon: async ({ keyPrefix, key, leaseId }) => {
      await db.execute(
        `DELETE FROM idempotency_entries WHERE key_prefix = $1 AND idempotency_key = $2 AND lease_id = $3 AND state = 'running'`,
        [keyPrefix, key, leaseId],
      )
    },
    purge: async () => db.execute('DELETE FROM idempotency_entries WHERE expires_at <= $1', [now()]),
  }
}
