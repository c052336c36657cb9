/** Base class of the market state's errors. */
export class MarketError extends Error {
  override name = 'MarketError'
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
    )
    this.ageMs = ageMs
    this.lastError = lastError
  }
}
