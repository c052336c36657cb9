/** What kind of failure a solver call reported; decides how a caller answers (400 vs 404 vs 500). */
export type SolverErrorKind = 'invalid input' | 'unsupported' | 'no route' | 'internal'

const kinds: readonly SolverErrorKind[] = ['invalid input', 'unsupported', 'no route', 'internal']

/**
 * An error from either backend. The Rust side prefixes every message with its kind; this class
 * splits it back out so callers never parse strings.
 *
 * @example
 * ```ts
 * import { SolverError } from './errors.ts'
 * const err = SolverError.fromMessage('no route: no pool holds tokenIn 0x…')
 * err.kind // 'no route'
 * ```
 */
export class SolverError extends Error {
  override name = 'SolverError'
  readonly kind: SolverErrorKind
  readonly detail: string

  constructor(kind: SolverErrorKind, detail: string) {
    super(`${kind}: ${detail}`)
    this.kind = kind
    this.detail = detail
  }

  /** Parses a backend message (`"<kind>: <detail>"`); anything else is an internal error. */
  static fromMessage(message: string): SolverError {
    const kind = kinds.find((k) => message.startsWith(`${k}: `))
    return kind ? new SolverError(kind, message.slice(kind.length + 2)) : new SolverError('internal', message)
  }

  /** Wraps whatever a backend threw. */
  static from(err: unknown): SolverError {
    if (err instanceof SolverError) return err
    return SolverError.fromMessage(err instanceof Error ? err.message : String(err))
  }
}
