import { Agent, type IncomingHttpHeaders, request } from 'node:http'

/**
 * One keep-alive pool for every local chain of the process. Node unrefs a socket while it sits idle
 * in the pool, so the pool never holds a process that is done (as anvil itself does not: startAnvil).
 */
const agent = new Agent({ keepAlive: true })

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/**
 * `fetch` over `node:http` with a keep-alive agent, for JSON-RPC to a chain on this machine (the
 * devnet's viem clients, `createDevnetClients`, and `createRpcTransport` for a node on a loopback
 * address, [`isLoopbackHttpUrl`]). Node 20's `fetch` (undici) spends about 1 ms of CPU
 * on each call to a local anvil, this about half of it (3,000 `eth_getBalance` through viem, alternated,
 * Intel Xeon: 0.90–1.17 against 0.46–0.60 ms), and anvil less too (no new connection per call): the
 * devnet's seeding, the embedded service's market reads and every chain-level test make tens of
 * thousands of calls (a differential test's CPU fell 40 %, the chain's included). The request body
 * must be a string or bytes (viem's is a JSON string); an aborted `signal` destroys the request and
 * rejects with the signal's reason, as `fetch` does.
 *
 * @example
 * const transport = http(anvil.url, { fetchFn: loopbackFetch })
 * await createPublicClient({ chain, transport }).getChainId() // → 8453, over node:http
 */
export function loopbackFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof Request ? input.url : input
  const { body, signal } = init
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    return Promise.reject(new TypeError('loopbackFetch: the body must be a string or bytes'))
  }
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
    const fail = (error: Error) => {
      signal?.removeEventListener('abort', onAbort)
      reject(signal?.aborted ? signal.reason : error)
    }
    const req = request(url, { method: init.method ?? 'GET', agent, headers: Object.fromEntries(new Headers(init.headers)) }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', fail)
      res.on('end', () => {
        signal?.removeEventListener('abort', onAbort)
        const status = res.statusCode ?? 0
        resolve(
          new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), {
            status,
            statusText: res.statusMessage,
            headers: responseHeaders(res.headers),
          }),
        )
      })
    })
    req.on('error', fail)
    signal?.addEventListener('abort', onAbort, { once: true })
    req.end(body ?? undefined)
  })
}

function responseHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return out
}

/**
 * Whether `url` is plain HTTP to this machine (127.0.0.0/8, `localhost`, `[::1]`): the URLs
 * [`loopbackFetch`] serves. HTTPS and other hosts stay on `fetch`.
 *
 * @example
 * isLoopbackHttpUrl('http://127.0.0.1:8545') // → true
 * isLoopbackHttpUrl('https://mainnet.base.org') // → false
 */
export function isLoopbackHttpUrl(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  const host = parsed.hostname
  return parsed.protocol === 'http:' && (host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))
}
