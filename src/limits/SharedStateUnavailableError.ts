import { HttpError } from '../http/errors.ts'

/**
 * The shared store (Redis) did not answer: the call is refused with 503 rather than served without
 * its rate limit or its quotes (no silent unlimited mode). The message is safe to show (no URL).
 */
export class SharedStateUnavailableError extends HttpError {
  override name = 'SharedStateUnavailableError'
  constructor(cause?: unknown) {
    super(503, 'shared state unavailable: the rate limiter and quote store cannot be reached, retry shortly')
    if (cause !== undefined) this.cause = cause
  }
}
