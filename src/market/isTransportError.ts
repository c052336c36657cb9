import { BaseError, HttpRequestError, RpcRequestError, SocketClosedError, TimeoutError, WebSocketRequestError } from 'viem'
import { RpcCircuitOpenError } from '../chains/rpc/RpcCircuitOpenError.ts'

/**
 * Whether an error means the RPC could not answer (network, timeout, node error), as opposed to
 * a contract call that answered with a revert. The first aborts a refresh (the snapshot stays as
 * it was); the second only makes that one pool unusable.
 *
 * @example
 * isTransportError(new HttpRequestError({ url: 'http://127.0.0.1:1' })) // true
 */
export function isTransportError(error: unknown): boolean {
  // Every node's circuit open: no node could be asked.
  if (error instanceof RpcCircuitOpenError) return true
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
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|circuit open/i.test(message)
}
