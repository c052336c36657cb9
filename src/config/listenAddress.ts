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

/**
 * The launch gateway's `HOST` and `GATEWAY_PORT`, read as `listenAddress` reads the API's, when
 * `npm start` will start the gateway: on the embedded chain (no `RPC_URL`) or with
 * `GATEWAY_CHAIN_CONFIG` (docs/gateway/chains.md); undefined otherwise or when malformed.
 *
 * @example
 * gatewayListenAddress({ PORT: '0' }) // → { host: '127.0.0.1', port: 0 }
 * gatewayListenAddress({ RPC_URL: 'https://node.example' }) // → undefined: no gateway without its chains' config
 */
export function gatewayListenAddress(env: Record<string, string | undefined>): { host: string; port: number } | undefined {
  const set = (name: string) => env[name] !== undefined && env[name] !== ''
  if (set('RPC_URL') && !set('GATEWAY_CHAIN_CONFIG')) return undefined
  const api = listenAddress(env)
  const raw = set('GATEWAY_PORT') ? env.GATEWAY_PORT! : env.PORT === '0' ? '0' : '8081'
  const port = /^[0-9]+$/.test(raw) ? Number(raw) : NaN
  if (!api || !(port >= 0 && port <= 65_535)) return undefined
  return { host: api.host, port }
}
