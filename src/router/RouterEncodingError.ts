import { BaseError } from '../errors/BaseError.ts'

/**
 * A route plan or call parameter that cannot become a router call (an unsupported leg kind,
 * malformed leg data, inconsistent tokens or amounts, a value outside its ABI type). `path` names
 * the offending field in the encoder's terms, e.g. `routes[1].legs[0].data` or `permit.r`;
 * `reason` says what is wrong with it. The HTTP error handler maps `path` to the request's field.
 *
 * @example
 * throw new RouterEncodingError({ path: 'routes[0].legs[0].data.kind', message: 'curve has no router leg yet' })
 * // → .message 'routes[0].legs[0].data.kind: curve has no router leg yet', .path and .reason the two halves
 */
export class RouterEncodingError extends BaseError<'router encoding'> {
  override name = 'RouterEncodingError'
  readonly path: string
  readonly reason: string
  constructor({ path, message }: { path: string; message: string }) {
    super('router encoding', `${path}: ${message}`)
    this.path = path
    this.reason = message
  }
}
