import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SqlDatabase } from './SqlDatabase.ts'

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations')

export type MigrateReturnType = { applied: string[] }

/**
 * Applies the migrations (`migrations/NNN_name.sql`, in order) the database has not seen, each
 * in its own transaction with its row in `schema_migrations`. The same files run on SQLite and
 * PostgreSQL: they use only the SQL both accept. On PostgreSQL an advisory lock keeps two
 * instances starting together from applying one twice.
 *
 * @example
 * const { applied } = await migrate({ db })
 * // → { applied: ['001_….sql', …] }: the files applied now; [] when the schema was up to date
 */
export async function migrate({ db }: { db: SqlDatabase }): Promise<MigrateReturnType> {
  await db.executeScript(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  )
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
  const applied: string[] = []
  for (const file of files) {
    const version = Number(file.slice(0, 3))
    const done = await db.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(8453013)')
      const [seen] = await tx.query('SELECT version FROM schema_migrations WHERE version = $1', [version])
      if (seen) return false
      await tx.executeScript(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'))
      await tx.execute('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        version,
        file,
        new Date().toISOString(),
      ])
      return true
    })
    if (done) applied.push(file)
  }
  return { applied }
}
