import { BaseError, HttpRequestError, RpcRequestError, SocketClosedError, TimeoutError, WebSocketRequestError } from 'viem'

/**
 * Whether an error means the RPC could not answer (network, timeout, node error), as opposed to
 * a contract call that answered with a revert. The first aborts a refresh (the snapshot stays as
 * it was); the second only makes that one pool unusable.
 *
 * @example
 * isTransportError(new HttpRequestError({ url: 'http://127.0.0.1:1' })) // true
 */
export function isTransportError(error: unknown): boolean {
  if (error instanceof BaseError) {
    const found = error.walk(
      (e) =>
        e instanceof HttpRequestError ||
        e instanceof TimeoutError ||
        e instanceof SocketClosedError ||
        e instanceof WebSocketRequestError ||
        e instanceof RpcRequestError,
    )
    return found !== null && found !== undefined
  }
  const message = error instanceof Error ? error.message : String(error)
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up/i.test(message)
}
