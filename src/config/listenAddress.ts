/** `HOST` unset: loopback only (a deployment sets `HOST=0.0.0.0` to be reached from outside). */
export const DEFAULT_HOST = '127.0.0.1'
/** `PORT` unset. */
export const DEFAULT_PORT = 8080

/**
 * `HOST` and `PORT` read without the configuration's schema (`loadConfig` takes seconds to import,
 * `server.ts` binds the port before it: listenWhileLoading.ts); undefined when either is malformed,
 * which `loadConfig` then reports with the rest.
 *
 * @example
 * listenAddress({ PORT: '0' }) // → { host: '127.0.0.1', port: 0 }
 * listenAddress({ PORT: 'eighty' }) // → undefined
 */
export function listenAddress(env: Record<string, string | undefined>): { host: string; port: number } | undefined {
  const host = env.HOST ?? DEFAULT_HOST
  const port = env.PORT === undefined ? DEFAULT_PORT : /^[0-9]+$/.test(env.PORT) ? Number(env.PORT) : NaN
  if (host === '' || !(port >= 0 && port <= 65_535)) return undefined
  return { host, port }
}
