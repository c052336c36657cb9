import { type ProblemCode, problemCodes } from './problemCodes.ts'
import { BaseError } from '../../errors/BaseError.ts'

/** One offending field of a validation problem. */
export type InvalidParameter = {
  name: string
  /** Where the field was: `query`, `path`, `header` or `body`. */
  in: 'query' | 'path' | 'header' | 'body'
  reason: string
}

/** What a problem says beyond its code (spec §2's optional members among them). */
export type ProblemDetails = {
  detail: string
  /** The safe next step; default the code's own (`problemCodes`). */
  action?: string
  /** For codes with more than one status (`invalid_request`: 400 or 413). */
  status?: number
  invalidParameters?: InvalidParameter[]
  resource?: string
  chainId?: number
  tokenAddress?: string
  suggestedEndpoint?: string
  asset?: string
  actualRaw?: string
  requiredRaw?: string
  /** For 429s (and 503s): seconds, sent as `Retry-After`. */
  retryAfterSec?: number
  /** For 429s: the limiter policies the request broke (ratelimit draft's `violated-policies`). */
  violatedPolicies?: string[]
}

/**
 * The gateway's one error class: a spec §7 code and what to say about this occurrence. Thrown
 * anywhere below a route; the gateway's error handler answers it as `application/problem+json`.
 *
 * @example
 * throw new GatewayProblem('not_found', { detail: 'No token 0xabc… on chain 8453.', resource: 'token', chainId: 8453, tokenAddress: '0xabc…' })
 * // answered 404 application/problem+json with code 'not_found' and that detail
 */
export class GatewayProblem extends BaseError<'problem'> {
  override name = 'GatewayProblem'
  readonly code: ProblemCode
  readonly status: number
  readonly details: ProblemDetails

  constructor(code: ProblemCode, details: ProblemDetails) {
    super('problem', `${code}: ${details.detail}`)
    const statuses: readonly number[] = problemCodes[code].statuses
    if (details.status !== undefined && !statuses.includes(details.status)) throw new RangeError(`${code} is never ${details.status}`)
    this.code = code
    this.status = details.status ?? statuses[0]
    this.details = details
  }
}
