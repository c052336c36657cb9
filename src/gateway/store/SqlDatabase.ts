/** A value a statement binds: integers as numbers (or bigints), amounts as decimal strings. */
export type SqlValue = string | number | bigint | boolean | null

/**
 * The one interface the gateway's store speaks, over SQLite (`openSqliteDatabase`, the embedded
 * default) and PostgreSQL (`openPostgresDatabase`, at scale). Statements are written once, in the
 * SQL both engines accept, with `$1..$n` placeholders. Integers come back as numbers on both
 * (PostgreSQL's int8 is parsed to a number: block numbers, times and counts stay far below 2^53),
 * amounts are TEXT and come back as strings.
 */
export interface SqlDatabase {
  readonly dialect: 'sqlite' | 'postgres'
  /** Rows of one statement. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>
  /** One statement; returns the number of rows it changed. */
  execute(sql: string, params?: readonly SqlValue[]): Promise<number>
  /** Several statements without parameters (a migration). */
  executeScript(sql: string): Promise<void>
  /**
   * Runs `fn` in one transaction: everything it writes commits together, or nothing does (it
   * rolls back when `fn` throws). Other callers never see its writes before the commit.
   */
  transaction<T>(fn: (tx: SqlDatabase) => Promise<T>): Promise<T>
  close(): Promise<void>
}
