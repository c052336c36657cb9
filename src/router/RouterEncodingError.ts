/**
 * A route plan that cannot become a router call (an unsupported leg kind, malformed leg data,
 * inconsistent tokens or amounts). `path` names the offending field, e.g. `routes[1].legs[0].data`.
 *
 * @example
 * throw new RouterEncodingError({ path: 'routes[0].legs[0].data.kind', message: 'curve has no router leg yet' })
 */
export class RouterEncodingError extends Error {
  override name = 'RouterEncodingError'
  readonly path: string
  constructor({ path, message }: { path: string; message: string }) {
    super(`${path}: ${message}`)
    this.path = path
  }
}
