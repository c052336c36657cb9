import type { RequestListener, Server, ServerResponse } from 'node:http'
import { type LocalhostLookup, listenOnHost } from './listenOnHost.ts'

// Imports node's own modules only, on purpose: `server.ts` binds the port with this before it imports the
// rest of the service (the app, the market, the adapters, the gateway), which takes seconds to
// compile and load (16.7 s on a loaded machine: bench/README.md, discovery). The port is never
// closed in between: Fastify is handed this same server (its `serverFactory`).

/** What `/ready` answers until the service is loaded (then the real report, `routes/ready.ts`). */
export const LOADING_READY_BODY = { ready: false, notReady: ['starting'], phase: 'loading' } as const

/** Seconds a client is told to wait (`Retry-After`) while the service loads. */
const RETRY_AFTER_SECONDS = 1

/** What a loading server answers: the swap service's by default (`swapLoadingAnswers`). */
export type LoadingAnswers = {
  /** `GET /health`'s 200 body. */
  health: () => unknown
  /** `GET /ready`'s 503 body; absent: `/ready` is refused like any other path. */
  ready?: () => unknown
  /** Any other request: 503 with `Retry-After`, this content type and body. */
  refused: { contentType: string; body: () => unknown }
}

/** The swap service's: `/health` 200, `/ready` 503 `LOADING_READY_BODY`, the rest 503 in the API's `{ error }` shape. */
export const swapLoadingAnswers: LoadingAnswers = {
  health: () => ({ ok: true }),
  ready: () => LOADING_READY_BODY,
  refused: {
    contentType: 'application/json; charset=utf-8',
    body: () => ({ error: 'starting: the service is loading, retry shortly (GET /ready says when it is ready)' }),
  },
}

export type LoadingServer = {
  /** Listening already; Fastify's too once handed over (the first address's, when `host` named several). */
  server: Server
  /**
   * Every server bound, `server` first: `localhost` is bound on each address it resolves to
   * (127.0.0.1 and ::1 where both exist), as Fastify's own `listen` does.
   */
  servers: Server[]
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
  /** Closes every server bound (Fastify does not close a server it was handed). */
  close: () => Promise<void>
}

function answer(res: ServerResponse, status: number, contentType: string, body: unknown, retry: boolean): void {
  const headers: Record<string, string> = { 'content-type': contentType }
  if (retry) headers['retry-after'] = String(RETRY_AFTER_SECONDS)
  res.writeHead(status, headers)
  res.end(JSON.stringify(body))
}

/** A request handler answering as `answers` says. */
function whileLoading(answers: LoadingAnswers): RequestListener {
  return (req, res) => {
    req.resume() // a body is not read: drained so the connection can carry the next request
    const path = (req.url ?? '/').split('?')[0]
    const read = req.method === 'GET' || req.method === 'HEAD'
    const json = 'application/json; charset=utf-8'
    if (read && path === '/health') return answer(res, 200, json, answers.health(), false)
    if (read && path === '/ready' && answers.ready) return answer(res, 503, json, answers.ready(), true)
    answer(res, 503, answers.refused.contentType, answers.refused.body(), true)
  }
}

/**
 * Binds `host:port` at once (`localhost` on each address it resolves to: `listenOnHost`) and
 * answers as `answers` says until `handOver`.
 *
 * @example
 * const loading = await listenWhileLoading({ host: '127.0.0.1', port: 8080 })
 * // GET /health → 200 {"ok":true}; GET /ready → 503 {"ready":false,"notReady":["starting"],"phase":"loading"}
 * const fastify = Fastify({ serverFactory: loading.serverFactory })
 * await fastify.ready()
 * loading.handOver() // the app answers from now on, on the same port
 */
export async function listenWhileLoading({
  host,
  port,
  answers = swapLoadingAnswers,
  lookupLocalhost,
}: {
  host: string
  port: number
  answers?: LoadingAnswers
  /** Tests only: what `localhost` resolves to (default: the system's resolver, as Fastify asks it). */
  lookupLocalhost?: LocalhostLookup
}): Promise<LoadingServer> {
  const loadingHandler = whileLoading(answers)
  const { servers, url } = await listenOnHost({ host, port, handler: loadingHandler, lookupLocalhost })
  const server = servers[0]
  let app: RequestListener | undefined
  return {
    server,
    servers,
    url,
    serverFactory: (handler, options = {}) => {
      app = handler
      for (const s of servers) {
        if (options.keepAliveTimeout !== undefined) s.keepAliveTimeout = options.keepAliveTimeout
        if (options.requestTimeout !== undefined) s.requestTimeout = options.requestTimeout
        if (options.connectionTimeout !== undefined) s.setTimeout(options.connectionTimeout)
      }
      return server
    },
    handOver: () => {
      if (!app) throw new Error('handOver before serverFactory: no app to hand over to')
      for (const s of servers) {
        s.removeListener('request', loadingHandler)
        s.on('request', app)
      }
    },
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
    },
  }
}
