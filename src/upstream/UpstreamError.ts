import { BaseError } from '../errors/BaseError.ts'

/**
 * Why one upstream call gave no usable quote. The kind decides what the service does next:
 * - `no route`: the upstream answered that it cannot fill the trade (its own no-liquidity answer);
 *   a healthy answer, not counted against the upstream's circuit breaker.
 * - `throttled`: not called, our token bucket for its published tier was empty.
 * - `circuit open`: not called, its breaker is open after repeated failures.
 * - `rate limited`: it answered 429 (its limit, not ours); `retryAfterMs` when it said.
 * - `rejected`: another 4xx (bad key, a parameter it refused).
 * - `server error`: a 5xx.
 * - `timeout`: no complete answer before the call's deadline.
 * - `network`: the connection failed.
 * - `invalid response`: an answer that is not its documented format, or that contradicts the
 *   request (another token, another amount, an amount no uint256 holds): never turned into a number.
 * - `unsupported`: the request asks for something this API cannot express (e.g. a slippage below
 *   its minimum), so that call is not made.
 */
export type UpstreamErrorKind =
  | 'no route'
  | 'throttled'
  | 'circuit open'
  | 'rate limited'
  | 'rejected'
  | 'server error'
  | 'timeout'
  | 'network'
  | 'invalid response'
  | 'unsupported'

/** Kinds that say the upstream is unhealthy (they count toward opening its circuit breaker). */
export const FAILURE_KINDS: ReadonlySet<UpstreamErrorKind> = new Set([
  'rate limited',
  'rejected',
  'server error',
  'timeout',
  'network',
  'invalid response',
])

/** One upstream call that gave no usable quote; `message` is safe to show a client (never a key or a body dump). */
export class UpstreamError extends BaseError<UpstreamErrorKind> {
  override name = 'UpstreamError'
  /** How long the upstream asked us to wait (`Retry-After` of a 429), in ms. */
  readonly retryAfterMs?: number
  constructor(kind: UpstreamErrorKind, message: string, options?: { retryAfterMs?: number; cause?: unknown }) {
    super(kind, message, { cause: options?.cause })
    this.retryAfterMs = options?.retryAfterMs
  }
}
