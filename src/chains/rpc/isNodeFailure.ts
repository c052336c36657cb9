import { BaseError, HttpRequestError, SocketClosedError, TimeoutError, WebSocketRequestError } from 'viem'

/**
 * Whether an RPC call failed because the node did not answer properly (connection refused or
 * reset, timeout, an HTTP error status such as 429 or 5xx), as opposed to a JSON-RPC answer (a
 * revert, a range the node refuses): only the first counts against the node's circuit.
 *
 * @example
 * isNodeFailure(new HttpRequestError({ url: 'http://127.0.0.1:1', status: 503 })) // true
 * isNodeFailure(new Error('execution reverted')) // false
 */
export function isNodeFailure(error: unknown): boolean {
  if (error instanceof BaseError) {
    const found = error.walk(
      (e) =>
        e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SocketClosedError || e instanceof WebSocketRequestError,
    )
    return found !== null && found !== undefined
  }
  const message = error instanceof Error ? error.message : String(error)
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|aborted/i.test(message)
}
