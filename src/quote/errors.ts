import { BaseError } from '../errors/BaseError.ts'

/** Base class of the quote service's errors; `kind` says how a caller (the HTTP layer) answers. */
export class QuoteError extends BaseError<'invalid request' | 'stale market' | 'no route'> {
  override name = 'QuoteError'
}

/** The request breaks a rule of the spec's QuoteRequest (or asks for another chain): a 400. */
export class InvalidQuoteRequestError extends QuoteError {
  override name = 'InvalidQuoteRequestError'
  declare readonly kind: 'invalid request'
  /** The offending field, e.g. `slippageBps`. */
  readonly field: string
  constructor({ field, message, cause }: { field: string; message: string; cause?: unknown }) {
    super('invalid request', `${field}: ${message}`, { cause })
    this.field = field
  }
}

/** The market snapshot is stale (or was never taken): quoting now could promise what the chain will not pay. */
export class QuoteMarketStaleError extends QuoteError {
  override name = 'QuoteMarketStaleError'
  declare readonly kind: 'stale market'
  /**
   * What the client is told when the cause is the client's to know (a venue that re-priced, a reorg
   * during the solve); unset when the cause is the chain's RPC, whose errors can name a node's URL and
   * key: the client then gets the generic text and the log the detail.
   */
  readonly publicReason?: string
  constructor({ message, cause, publicReason }: { message: string; cause?: unknown; publicReason?: string }) {
    super('stale market', message, { cause })
    this.publicReason = publicReason
  }
}

/** Nothing connects the tokens, or no path can absorb the amount. */
export class NoRouteError extends QuoteError {
  override name = 'NoRouteError'
  declare readonly kind: 'no route'
  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super('no route', message, { cause })
  }
}
