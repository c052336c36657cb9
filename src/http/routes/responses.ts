import { ErrorBody, RateLimitedBody } from '../schemas/scalars.ts'

/** The error answers every authenticated route can send (auth, limit, body, internal). */
export const authenticatedErrorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: RateLimitedBody,
  500: ErrorBody,
}
