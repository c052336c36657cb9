import { lookup } from 'node:dns/promises'
import { createServer, type RequestListener, type Server } from 'node:http'

/** The addresses `localhost` resolves to (Fastify's `listen` binds each). */
export type LocalhostLookup = () => Promise<{ address: string }[]>

function bind(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host, port }, () => {
      server.removeListener('error', reject)
      resolve()
    })
  })
}

/**
 * HTTP servers answering with `handler` on `host:port`, bound before it resolves. `localhost` is
 * bound on every address it resolves to, on one port (the first's, when `port` is 0), as Fastify's
 * own `listen` does (127.0.0.1 and ::1 where both exist); an address that cannot be bound besides
 * the first (no IPv6 here) is skipped, as Fastify skips it. Imports node's own modules only
 * (`server.ts` binds with it before it loads the service).
 *
 * @example
 * const { servers, url } = await listenOnHost({ host: 'localhost', port: 8080, handler })
 * // url 'http://127.0.0.1:8080'; servers: one per address localhost resolves to
 */
export async function listenOnHost({
  host,
  port,
  handler,
  lookupLocalhost = () => lookup('localhost', { all: true }),
}: {
  host: string
  port: number
  handler: RequestListener
  /** Tests only: what `localhost` resolves to (default: the system's resolver, as Fastify asks it). */
  lookupLocalhost?: LocalhostLookup
}): Promise<{ servers: Server[]; url: string }> {
  const server = createServer(handler)
  await bind(server, host, port)
  const address = server.address()
  const url =
    typeof address === 'object' && address
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address)
  const servers = [server]
  if (host === 'localhost' && typeof address === 'object' && address) {
    const others = (await lookupLocalhost().catch(() => [])).filter((a) => a.address !== address.address)
    for (const other of others) {
      const secondary = createServer(handler)
      const bound = await bind(secondary, other.address, address.port).then(
        () => true,
        () => false,
      )
      if (bound) servers.push(secondary)
    }
  }
  return { servers, url }
}
