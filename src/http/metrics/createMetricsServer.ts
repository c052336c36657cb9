import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { listenOnHost } from '../listenOnHost.ts'

export type MetricsServer = {
  /** Listens on host:port (0: any free port; `localhost` on each address it resolves to) and answers the URL it serves `/metrics` at. */
  listen: (options: { host: string; port: number }) => Promise<string>
  close: () => Promise<void>
}

/**
 * The Prometheus endpoint on its own port (`METRICS_PORT`), away from the public API: `GET
 * /metrics` answers the registry's text, anything else 404. Numbers only (no key, URL or address),
 * but what a fleet's operators scrape is not for callers of the API: a separate port can stay on
 * the internal network while the API port faces the load balancer. No keys, no rate limit.
 *
 * @example
 * const server = createMetricsServer({ registry: metrics.registry })
 * const url = await server.listen({ host: '127.0.0.1', port: 9464 }) // http://127.0.0.1:9464/metrics
 */
export function createMetricsServer({ registry }: { registry: Registry }): MetricsServer {
  let servers: Server[] = []
  return {
    listen: async ({ host, port }) => {
      const handler = (request: IncomingMessage, response: ServerResponse) => {
        if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: 'not found: the metrics port serves GET /metrics only' }))
          return
        }
        registry.metrics().then(
          (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
          () => response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal error' })),
        )
      }
      const bound = await listenOnHost({ host, port, handler })
      servers = bound.servers
      return `${bound.url}/metrics`
    },
    close: async () => {
      const closing = servers.filter((s) => s.listening)
      servers = []
      for (const s of closing) s.closeAllConnections()
      await Promise.all(closing.map((s) => new Promise((resolve) => s.close(resolve))))
    },
  }
}
