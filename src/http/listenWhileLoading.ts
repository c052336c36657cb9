import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'

// Imports node:http only, on purpose: `server.ts` binds the port with this before it imports the
// rest of the service (the app, the market, the adapters, the gateway), which takes seconds to
// compile and load (16.7 s on a loaded machine: bench/README.md, discovery). The port is never
// closed in between: Fastify is handed this same server (its `serverFactory`).

/** What `/ready` answers until the service is loaded (then the real report, `routes/ready.ts`). */
export const LOADING_READY_BODY = { ready: false, notReady: ['starting'], phase: 'loading' } as const

/** Seconds a client is told to wait (`Retry-After`) while the service loads. */
const RETRY_AFTER_SECONDS = 1

export type LoadingServer = {
  /** Listening already; Fastify's too once handed over. */
  server: Server
  /** `http://host:port` as bound (the port chosen when `port` was 0). */
  url: string
  /**
   * Fastify's `serverFactory`: returns this listening server, applies Fastify's server timeouts and
   * keeps Fastify's handler for `handOver` (not used before: Fastify answers only once ready).
   */
  serverFactory: (
    handler: RequestListener,
    options?: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number },
  ) => Server
  /** Requests go to the handler `serverFactory` was given from now on (kept-alive connections too). */
  handOver: () => void
}

function answer(res: ServerResponse, status: number, body: unknown, retry: boolean): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  if (retry) headers['retry-after'] = String(RETRY_AFTER_SECONDS)
  res.writeHead(status, headers)
  res.end(JSON.stringify(body))
}

/** `GET /health` 200 (alive), `/ready` 503 `LOADING_READY_BODY`, anything else 503 in the API's `{ error }` shape. */
function whileLoading(req: IncomingMessage, res: ServerResponse): void {
  req.resume() // a body is not read: drained so the connection can carry the next request
  const path = (req.url ?? '/').split('?')[0]
  const read = req.method === 'GET' || req.method === 'HEAD'
  if (read && path === '/health') return answer(res, 200, { ok: true }, false)
  if (read && path === '/ready') return answer(res, 503, LOADING_READY_BODY, true)
  answer(res, 503, { error: 'starting: the service is loading, retry shortly (GET /ready says when it is ready)' }, true)
}

/**
 * Binds `host:port` at once and answers as `whileLoading` says until `handOver`.
 *
 * @example
 * const loading = await listenWhileLoading({ host: '127.0.0.1', port: 8080 })
 * // GET /health → 200 {"ok":true}; GET /ready → 503 {"ready":false,"notReady":["starting"],"phase":"loading"}
 * const fastify = Fastify({ serverFactory: loading.serverFactory })
 * await fastify.ready()
 * loading.handOver() // the app answers from now on, on the same port
 */
export async function listenWhileLoading({ host, port }: { host: string; port: number }): Promise<LoadingServer> {
  const server = createServer(whileLoading)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host, port }, () => {
      server.removeListener('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const url =
    typeof address === 'object' && address
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address)
  let app: RequestListener | undefined
  return {
    server,
    url,
    serverFactory: (handler, options = {}) => {
      app = handler
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout)
      return server
    },
    handOver: () => {
      if (!app) throw new Error('handOver before serverFactory: no app to hand over to')
      server.removeListener('request', whileLoading)
      server.on('request', app)
    },
  }
}
