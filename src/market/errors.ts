import { BaseError } from '../errors/BaseError.ts'

/** The market's kinds: `market` is a misuse or a store that does not fit; the rest are their classes'. */
type MarketErrorKind = 'market' | 'market stale' | 'market reorg' | 'token history unavailable' | 'token probe refused'

/** Base class of the market state's errors. */
export class MarketError extends BaseError<MarketErrorKind> {
  override name = 'MarketError'
  constructor(message: string, options?: { kind?: Exclude<MarketErrorKind, 'market'>; cause?: unknown }) {
    super(options?.kind ?? 'market', message, options)
  }
}

/** The snapshot is older than allowed (or there is none): quotes must be refused. */
export class MarketStaleError extends MarketError {
  override name = 'MarketStaleError'
  readonly ageMs: number
  readonly lastError: string | undefined
  constructor({ ageMs, maxSnapshotAgeMs, lastError }: { ageMs: number; maxSnapshotAgeMs: number; lastError: string | undefined }) {
    super(
      `market snapshot is stale: last in sync ${Number.isFinite(ageMs) ? `${ageMs} ms ago` : 'never'} (limit ${maxSnapshotAgeMs} ms)` +
        (lastError ? `; last error: ${lastError}` : ''),
      { kind: 'market stale' },
    )
    this.ageMs = ageMs
    this.lastError = lastError
  }
}

/** The block a refresh read its pools at left the chain before they were applied: nothing was applied. */
export class MarketReorgError extends MarketError {
  override name = 'MarketReorgError'
  constructor(message: string) {
    super(message, { kind: 'market reorg' })
  }
}

/** A reorg dropped the snapshot's block and the market is re-reading its pools: quotes wait for the new head. */
export class MarketReorgingError extends MarketStaleError {
  override name = 'MarketReorgingError'
  constructor({ blockNumber, ageMs }: { blockNumber: bigint | undefined; ageMs: number }) {
    super({ ageMs, maxSnapshotAgeMs: 0, lastError: undefined })
    this.message = `a reorg dropped block ${blockNumber}: the market is re-reading its pools at the new head`
  }
}

/** The node could not answer for a past block (not an archive node, or a chain loaded from a dump): the rebasing check's window must shrink. */
export class TokenHistoryUnavailableError extends MarketError {
  override name = 'TokenHistoryUnavailableError'
  constructor({ fromBlock, cause }: { fromBlock: bigint; cause: unknown }) {
    super(`the node did not serve state at block ${fromBlock}: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, {
      kind: 'token history unavailable',
      cause,
    })
  }
}

/** The node answered the transfer probe with an error other than a revert (it may not support state overrides). */
export class TokenProbeRefusedError extends MarketError {
  override name = 'TokenProbeRefusedError'
  constructor({ token, cause }: { token: string; cause: unknown }) {
    const details = (cause as { details?: string } | undefined)?.details
    super(
      `the node refused the transfer probe of ${token}: ${details || (cause instanceof Error ? cause.message.split('\n')[0] : String(cause))}`,
      { kind: 'token probe refused', cause },
    )
  }
}
