import type { UpstreamHttpResponse } from '../http/createUpstreamHttpClient.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { upstreamText } from './upstreamText.ts'

/**
 * The `UpstreamError` for a non-success answer: 429 is `rate limited` (with its Retry-After, in
 * seconds or as a date), a 5xx is `server error`, an answer the API documents as "cannot fill
 * this trade" is `no route` (`noRoute`, decided by the adapter from the API's own error codes),
 * and any other status is `rejected`. `message` is the upstream's own text (made safe).
 *
 * @example
 * throw upstreamStatusError({ response, message: body.description, noRoute: body.description === 'insufficient liquidity' })
 * // a 400 with that text → UpstreamError('no route', 'insufficient liquidity'); a 429 → 'rate limited' with retryAfterMs
 */
export function upstreamStatusError({
  response,
  message,
  noRoute = false,
  now = Date.now,
}: {
  response: UpstreamHttpResponse
  message?: unknown
  noRoute?: boolean
  now?: () => number
}): UpstreamError {
  const text = upstreamText(message)
  const said = `HTTP ${response.status}${text ? `: ${text}` : ''}`
  if (response.status === 429)
    return new UpstreamError('rate limited', said, { retryAfterMs: retryAfterMs(response.headers['retry-after'], now) })
  if (response.status >= 500) return new UpstreamError('server error', said)
  if (noRoute) return new UpstreamError('no route', text || said)
  return new UpstreamError('rejected', said)
}

function retryAfterMs(header: string | string[] | undefined, now: () => number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  if (/^[0-9]+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now())
}
