import { BaseError } from '../../errors/BaseError.ts'

/** SQLSTATE classes of a server that cannot serve: 08 connection exceptions, 57P01-57P03 shutting down or starting. */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3])/
/** The client's own words for a server it cannot reach or lost (node's socket codes, `pg`'s messages). */
const UNREACHABLE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EPIPE|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i

/**
 * The gateway's PostgreSQL cannot be reached (down, restarting, out of connections, too slow to
 * connect): the request is answered `temporarily_unavailable` (503), never from a stale copy.
 * The message names no URL.
 */
export class DatabaseUnavailableError extends BaseError<'database'> {
  override name = 'DatabaseUnavailableError'
  constructor(cause: unknown) {
    super('database', 'the gateway database cannot be reached')
    this.cause = cause
  }

  /**
   * Whether `error` says the server could not be reached (rather than refusing a statement).
   *
   * @example
   * DatabaseUnavailableError.describes(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
   * // → true; a unique violation (SQLSTATE 23505) → false
   */
  static describes(error: unknown): boolean {
    const e = error as { code?: unknown; message?: unknown } | undefined
    if (typeof e?.code === 'string' && UNAVAILABLE_SQLSTATE.test(e.code)) return true
    return UNREACHABLE.test(`${String(e?.code ?? '')} ${String(e?.message ?? '')}`)
  }
}
