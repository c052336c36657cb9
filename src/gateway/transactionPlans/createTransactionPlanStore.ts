import type { SqlDatabase } from '../store/SqlDatabase.ts'
import type { TransactionPlan } from './TransactionPlan.ts'

/** Plans and quotes are kept this long after they were made (then `GET /plans/{id}` is `not_found`). */
export const PLAN_RETENTION_MS = 24 * 3_600_000

/** A stored plan: its body, whose key made it, the chain configuration it was built against. */
export type StoredPlan = { plan: TransactionPlan; keyPrefix: string; configDigest: string; expiresAt: number }

export type TransactionPlanStore = {
  save: (input: { plan: TransactionPlan; keyPrefix: string; configDigest: string; createdAt: number; expiresAt: number }) => Promise<void>
  get: (planId: string) => Promise<StoredPlan | undefined>
  /** Deletes plans and quotes older than `PLAN_RETENTION_MS`. */
  purge: () => Promise<void>
}

/**
 * The transaction plans the prepare routes returned, in the gateway's store (`004_transaction_plans.sql`),
 * for `GET /plans/{id}`: on PostgreSQL every instance sees every plan.
 *
 * @example
 * const plans = createTransactionPlanStore({ db })
 * await plans.save({ plan, keyPrefix, configDigest, createdAt: Date.now(), expiresAt })
 * // plans.get(plan.plan_id) now answers it, with keyPrefix and configDigest, on every instance sharing db
 */
export function createTransactionPlanStore({ db, now = Date.now }: { db: SqlDatabase; now?: () => number }): TransactionPlanStore {
  return {
    save: async ({ plan, keyPrefix, configDigest, createdAt, expiresAt }) => {
      await db.execute(
        'INSERT INTO transaction_plans (plan_id, key_prefix, chain_id, kind, config_digest, created_at, expires_at, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [plan.plan_id, keyPrefix, plan.chain_id, plan.kind, configDigest, createdAt, expiresAt, JSON.stringify(plan)],
      )
    },
    get: async (planId) => {
      const [row] = await db.query<{ key_prefix: string; config_digest: string; expires_at: number; body: string }>(
        'SELECT key_prefix, config_digest, expires_at, body FROM transaction_plans WHERE plan_id = $1',
        [planId],
      )
      return row
        ? {
            plan: JSON.parse(row.body) as TransactionPlan,
            keyPrefix: row.key_prefix,
            configDigest: row.config_digest,
            expiresAt: Number(row.expires_at),
          }
        : undefined
    },
    purge: async () => {
      const before = now() - PLAN_RETENTION_MS
      await db.execute('DELETE FROM transaction_plans WHERE created_at < $1', [before])
      await db.execute('DELETE FROM swap_quotes WHERE created_at < $1', [before])
    },
  }
}
