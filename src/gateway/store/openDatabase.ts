import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrate } from './migrate.ts'
import { openPostgresDatabase } from './openPostgresDatabase.ts'
import { openSqliteDatabase } from './openSqliteDatabase.ts'
import type { SqlDatabase } from './SqlDatabase.ts'

export type OpenDatabaseParameters = {
  /** `postgres://…` (or `postgresql://…`), `sqlite:<path>`, a file path, or `:memory:`. */
  url: string
}

/**
 * Opens the gateway's store on the engine the URL names and brings its schema up to date (the one
 * set of migrations, `migrations/`).
 *
 * @example
 * const db = await openDatabase({ url: process.env.GATEWAY_DATABASE_URL ?? 'var/gateway.sqlite' })
 * // → a SqlDatabase (SQLite here, PostgreSQL for a postgres:// URL) with every migration applied
 */
export async function openDatabase({ url }: OpenDatabaseParameters): Promise<SqlDatabase> {
  let db: SqlDatabase
  if (/^postgres(ql)?:\/\//.test(url)) {
    db = openPostgresDatabase({ url })
  } else {
    const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    db = openSqliteDatabase({ path })
  }
  try {
    await migrate({ db })
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}
