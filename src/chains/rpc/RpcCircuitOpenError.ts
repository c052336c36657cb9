import { BaseError } from '../../errors/BaseError.ts'

/** A call refused at once because its node's circuit is open (the node failed repeatedly). */
export class RpcCircuitOpenError extends BaseError<'rpc circuit open'> {
  override name = 'RpcCircuitOpenError'
  readonly url: string
  readonly retryInMs: number
  constructor({ url, retryInMs }: { url: string; retryInMs: number }) {
    super('rpc circuit open', `RPC node ${url}: circuit open after repeated failures, next trial in ${retryInMs} ms`)
    this.url = url
    this.retryInMs = retryInMs
  }
}
