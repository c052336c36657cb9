import { UpstreamError } from './UpstreamError.ts'

/**
 * One line of an answer's `errors`: `<sourceId>: <kind>: <message>` (e.g. `1inch: no route:
 * insufficient liquidity`, `0x: timeout: no answer within 412 ms`), with `context` (which sample)
 * when given. Anything that is not an `UpstreamError` is a bug of ours and says only that.
 *
 * @example
 * describeUpstreamFailure('odos', new UpstreamError('server error', 'HTTP 503')) // 'odos: server error: HTTP 503'
 */
export function describeUpstreamFailure(sourceId: string, error: unknown, context?: string): string {
  const what = error instanceof UpstreamError ? `${error.kind}: ${error.message}` : 'internal error'
  return `${sourceId}: ${what}${context ? ` (${context})` : ''}`
}
