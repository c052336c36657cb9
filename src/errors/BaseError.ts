/**
 * The project's one error base (as viem's `BaseError`): every domain error extends it and says
 * its `kind`, a short literal that tells a caller what to do with it (`'no route'`, `'stale
 * market'`, `'router encoding'`, …). Error handlers switch on `kind`; the subclass adds the
 * values that kind carries (a field, a status, a retry delay).
 *
 * @example
 * ```ts
 * import { BaseError } from './BaseError.ts'
 * class PoolGoneError extends BaseError<'pool gone'> {
 *   override name = 'PoolGoneError'
 *   constructor(poolId: string) { super('pool gone', `pool ${poolId} was removed`) }
 * }
 * const err = new PoolGoneError('0xabc')
 * err.kind // 'pool gone'
 * err.message // 'pool 0xabc was removed'
 * err instanceof BaseError // true
 * ```
 */
export abstract class BaseError<Kind extends string = string> extends Error {
  override name = 'BaseError'
  readonly kind: Kind

  constructor(kind: Kind, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.kind = kind
  }
}
