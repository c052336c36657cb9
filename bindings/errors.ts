import { BaseError } from '../src/errors/BaseError.ts'
import type { DexId } from './types.ts'

/** The solver error's variant, as both backends set it in `error.code` (`SolverError::code` in Rust). */
export type SolverErrorCode = 'InvalidInput' | 'Unsupported' | 'NoRoute' | 'Internal'

/** What kind of failure a solver call reported; decides how a caller answers (400 vs 404 vs 500). */
export type SolverErrorKind = 'invalid input' | 'unsupported' | 'no route' | 'internal'

/** The one table of codes: each variant's kind (`solver-rs/src/error.rs` `ERROR_CODES`). */
const kindOfCode: Record<SolverErrorCode, SolverErrorKind> = {
  InvalidInput: 'invalid input',
  Unsupported: 'unsupported',
  NoRoute: 'no route',
  Internal: 'internal',
}

/** The variant's values, as the backends attach them to the error they throw. */
export type SolverErrorFields = {
  /** InvalidInput: the field the caller sent wrong (`slippageBps`, `pool 0x…`, `request`). */
  field?: string
  /** Unsupported: the pool input that named a kind without a model. */
  pool?: string
  /** Unsupported: that kind. */
  dex?: DexId
}

/** A backend's error as it crosses a thread (the WASM worker posts these properties). */
export type SolverFault = { code?: unknown; message?: unknown } & { [K in keyof SolverErrorFields]?: unknown }

const isCode = (code: unknown): code is SolverErrorCode => typeof code === 'string' && Object.hasOwn(kindOfCode, code)
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/**
 * An error from either backend. Both throw a JS error whose `code` is the Rust variant and whose
 * properties are its fields (`solver-rs/src/ffi`); this class reads them, never the message.
 *
 * @example
 * ```ts
 * import { SolverError } from './errors.ts'
 * const err = SolverError.from(Object.assign(new Error('0 is outside 1..=10000'), { code: 'InvalidInput', field: 'timeBudgetMs' }))
 * err.kind // 'invalid input'
 * err.field // 'timeBudgetMs'
 * err.detail // '0 is outside 1..=10000'
 * ```
 */
export class SolverError extends BaseError<SolverErrorKind> {
  override name = 'SolverError'
  readonly code: SolverErrorCode
  /** What went wrong, without the kind or the field. */
  readonly detail: string
  readonly field?: string
  readonly pool?: string
  readonly dex?: DexId

  constructor(kind: SolverErrorKind, detail: string, fields: SolverErrorFields = {}) {
    super(kind, `${kind}: ${fields.field === undefined ? '' : `${fields.field}: `}${detail}`)
    this.code = (Object.keys(kindOfCode) as SolverErrorCode[]).find((code) => kindOfCode[code] === kind) as SolverErrorCode
    this.detail = detail
    if (fields.field !== undefined) this.field = fields.field
    if (fields.pool !== undefined) this.pool = fields.pool
    if (fields.dex !== undefined) this.dex = fields.dex
  }

  /**
   * Whatever a backend threw, or the properties a worker posted of it: a known `code` gives its
   * kind and fields; anything else (a JS error of the host, a trap) is an internal error.
   */
  static from(err: unknown): SolverError {
    if (err instanceof SolverError) return err
    const fault = (typeof err === 'object' && err !== null ? err : {}) as SolverFault
    const message = text(fault.message) ?? String(err)
    if (!isCode(fault.code)) return new SolverError('internal', message)
    return new SolverError(kindOfCode[fault.code], message, {
      field: text(fault.field),
      pool: text(fault.pool),
      dex: text(fault.dex) as DexId | undefined,
    })
  }
}
