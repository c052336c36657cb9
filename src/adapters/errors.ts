import type { DexId } from '../../bindings/types.ts'
import { BaseError } from '../errors/BaseError.ts'

/** Base class of the adapters' domain errors. */
export class AdapterError extends BaseError<'adapter' | 'pool unusable'> {
  override name = 'AdapterError'
  constructor(message: string, options?: { kind?: 'pool unusable'; cause?: unknown }) {
    super(options?.kind ?? 'adapter', message, options)
  }
}

/**
 * The pool exists but cannot be priced exactly right now (not initialized, hooks we do not model,
 * ...). The market leaves it out of the solver, with this reason in its log, until an event says
 * its state changed.
 */
export class PoolUnusableError extends AdapterError {
  override name = 'PoolUnusableError'
  readonly poolId: string
  readonly dex: DexId
  readonly reason: string
  constructor({ poolId, dex, reason }: { poolId: string; dex: DexId; reason: string }) {
    super(`${dex} pool ${poolId} is unusable: ${reason}`, { kind: 'pool unusable' })
    this.poolId = poolId
    this.dex = dex
    this.reason = reason
  }
}
