import pg from 'pg'
import { DatabaseUnavailableError } from './DatabaseUnavailableError.ts'
import type { SqlDatabase, SqlValue } from './SqlDatabase.ts'

export type OpenPostgresDatabaseParameters = {
  /** `postgres://user@host:port/database`. */
  url: string
  /** Pool size; default 10. */
  maxConnections?: number
  /** Longest wait for a connection (default 2000 ms): past it the request is a 503, not a hang. */
  connectTimeoutMs?: number
}

const INT8_OID = 20

// int8 as a number (the default is a string): the store's int8 columns hold block numbers, Unix
// times and counts, all far below 2^53. Amounts are TEXT and never pass through here.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as never)) as typeof pg.types.getTypeParser,
}

/**
 * The store at scale: a `pg` pool. A transaction checks one connection out for its whole length
 * (`BEGIN` … `COMMIT`, `ROLLBACK` when `fn` throws). A server that cannot be reached (down,
 * restarting, no connection within `connectTimeoutMs`) is a `DatabaseUnavailableError` (the
 * gateway's 503); the pool reconnects on the next statement once it is back.
 *
 * @example
 * const db = openPostgresDatabase({ url: 'postgres://postgres@127.0.0.1:5432/gateway' })
 * const rows = await db.query('SELECT symbol FROM tokens WHERE chain_id = $1', [8453])
 */
export function openPostgresDatabase({ url, maxConnections = 10, connectTimeoutMs = 2_000 }: OpenPostgresDatabaseParameters): SqlDatabase {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, types, connectionTimeoutMillis: connectTimeoutMs })
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const over = (run: (text: string, values: unknown[]) => Promise<pg.QueryResult>): Omit<SqlDatabase, 'transaction' | 'close'> => ({
    dialect: 'postgres',
    query: async <Row>(sql: string, params: readonly SqlValue[] = []) => (await run(sql, params.map(toPg))).rows as Row[],
    execute: async (sql, params = []) => (await run(sql, params.map(toPg))).rowCount ?? 0,
    executeScript: async (sql) => {
      await run(sql, [])
    },
  })
  const outside = over((text, values) => unavailableAs(pool.query(values.length ? { text, values } : text)))
  return {
    ...outside,
    transaction: async (fn) => {
      const client = await unavailableAs(pool.connect())
      // A checked-out client is not the pool's to watch: its connection dropping between two
      // statements (the server stopped) is an 'error' event that would otherwise crash the process.
      // The next statement then fails as unavailable, and the broken client is destroyed, not reused.
      let broken: Error | undefined
      const onError = (error: Error) => {
        broken = error
      }
      client.on('error', onError)
      try {
        await client.query('BEGIN')
        const inside = over((text, values) => unavailableAs(client.query(values.length ? { text, values } : text)))
        const result = await fn({
          ...inside,
          transaction: () => {
            throw new Error('nested transactions are not supported')
          },
          close: async () => {},
        })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.off('error', onError)
        client.release(broken)
      }
    },
    close: () => pool.end(),
  }
}

/** A failure to reach the server as a `DatabaseUnavailableError`; a statement's own error as it is. */
async function unavailableAs<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw DatabaseUnavailableError.describes(error) ? new DatabaseUnavailableError(error) : error
  }
}

function toPg(value: SqlValue): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}
