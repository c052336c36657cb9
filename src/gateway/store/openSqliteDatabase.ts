import Database from 'better-sqlite3'
import type { SqlDatabase, SqlValue } from './SqlDatabase.ts'

export type OpenSqliteDatabaseParameters = {
  /** A file path, or `:memory:`. */
  path: string
}

/**
 * The embedded store: one better-sqlite3 connection (WAL, `synchronous=NORMAL`). Calls are
 * synchronous underneath; a transaction holds a lock that every other call waits for, so no read
 * ever runs inside another caller's open transaction (they would share the connection and see its
 * uncommitted rows). Prepared statements are cached by their text.
 *
 * @example
 * const db = openSqliteDatabase({ path: 'var/gateway.sqlite' })
 * const rows = await db.query('SELECT symbol FROM tokens WHERE chain_id = $1', [8453])
 * // → [{ symbol: 'ABC' }, …]: one object per row
 */
export function openSqliteDatabase({ path }: OpenSqliteDatabaseParameters): SqlDatabase {
  const db = new Database(path)
  if (path !== ':memory:') db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  // Another process on the same file (a second `npm start`) waits for the lock instead of failing at once.
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  const statements = new Map<string, Database.Statement>()
  const prepare = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
  // `$1` is a named parameter to SQLite: bound by the name `1`.
  const bind = (params: readonly SqlValue[]) => {
    const named: Record<string, unknown> = {}
    for (let i = 0; i < params.length; i++) {
      const value = params[i]
      named[i + 1] = typeof value === 'boolean' ? (value ? 1 : 0) : value
    }
    return named
  }
  const direct: SqlDatabase = {
    dialect: 'sqlite',
    query: async <Row>(sql: string, params: readonly SqlValue[] = []) => {
      const statement = prepare(sql)
      if (!statement.reader) {
        statement.run(bind(params))
        return [] as Row[]
      }
      return statement.all(bind(params)) as Row[]
    },
    execute: async (sql, params = []) => prepare(sql).run(bind(params)).changes,
    executeScript: async (sql) => {
      db.exec(sql)
    },
    transaction: () => {
      throw new Error('nested transactions are not supported')
    },
    close: async () => {},
  }

  // A promise chain: each transaction (and each call outside one) waits for the previous transaction.
  let lock: Promise<unknown> = Promise.resolve()
  const afterLock = async <T>(run: () => Promise<T>): Promise<T> => {
    const previous = lock
    let release!: () => void
    lock = new Promise<void>((resolve) => {
      release = resolve
    })
    try {
      await previous
      return await run()
    } finally {
      release()
    }
  }
  let open = true
  let inTransaction = false
  return {
    dialect: 'sqlite',
    // A call outside a transaction is one synchronous statement: it needs the lock only when a
    // transaction is open (its own `await`s may let this call run in between).
    query: (sql, params) => (inTransaction ? afterLock(() => direct.query(sql, params)) : direct.query(sql, params)),
    execute: (sql, params) => (inTransaction ? afterLock(() => direct.execute(sql, params)) : direct.execute(sql, params)),
    executeScript: (sql) => afterLock(() => direct.executeScript(sql)),
    transaction: (fn) =>
      afterLock(async () => {
        inTransaction = true
        db.exec('BEGIN IMMEDIATE')
        try {
          const result = await fn(direct)
          db.exec('COMMIT')
          return result
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK')
          throw error
        } finally {
          inTransaction = false
        }
      }),
    close: async () => {
      if (!open) return
      open = false
      await lock
      statements.clear()
      db.close()
    },
  }
}
