import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createTokenBucket, type TokenBucket } from '../createTokenBucket.ts'
import type { UpstreamId } from '../UpstreamAdapter.ts'
import type { StandInMarket, StandInReply, StandInRequest } from './StandInApi.ts'
import { standInApis } from './standInApis.ts'

/** How a stand-in answers; every failure is in the API's own format. */
export type StandInMode =
  | 'ok'
  | 'no route'
  | 'server error'
  | 'rate limited'
  /** Never answers (until the stand-in closes). */
  | 'hang'
  /** HTTP 200 with a body that is not JSON. */
  | 'garbage'
  /** HTTP 200 JSON that is not the API's format. */
  | 'wrong shape'
  /** HTTP 200 in the API's format, for another input amount. */
  | 'wrong amount'
  /** Closes the connection without answering. */
  | 'reset'

export type StandInBehaviour = {
  /** Delay before answering (ms), fixed or drawn per request. */
  latencyMs?: number | (() => number)
  mode?: StandInMode
  /** Enforce the API's own limit: past it, 429 in its format with Retry-After. */
  rateLimit?: { ratePerSec: number; burst: number }
}

export type UpstreamStandIn = {
  id: UpstreamId
  /** Base URL to configure the adapter with (`http://127.0.0.1:<port>`). */
  url: string
  /** Every request received, in order. */
  requests: StandInRequest[]
  setBehaviour: (behaviour: StandInBehaviour) => void
  /** Behaviours for the next requests, one each, before the standing one applies again. */
  queue: (...behaviours: StandInBehaviour[]) => void
  close: () => Promise<void>
}

export type StartUpstreamStandInParameters = {
  id: UpstreamId
  market: StandInMarket
  behaviour?: StandInBehaviour
  /** The key it requires (0x and 1inch require one); undefined: any. */
  apiKey?: string
  chainId?: number
  now?: () => number
}

/**
 * A local HTTP server that speaks one upstream API exactly as documented (paths, parameters,
 * headers, status codes, error bodies, rate-limit answers), priced by `market`, with the latency
 * and failures a test or the demo asks for. Listens on 127.0.0.1, a free port. Used by the tests
 * and by `UPSTREAMS_DEMO=1` (docs/upstreams.md); never stands in for anything in production.
 *
 * @example
 * const zeroEx = await startUpstreamStandIn({ id: '0x', market, apiKey: 'test-key', behaviour: { latencyMs: 340 } })
 * zeroEx.queue({ mode: 'rate limited' })
 * // the next call answers 0x's 429; later ones the standing behaviour (a 340 ms wait, then a quote from market)
 * await zeroEx.close()
 */
export async function startUpstreamStandIn({
  id,
  market,
  behaviour = {},
  apiKey,
  chainId = 8453,
  now = Date.now,
}: StartUpstreamStandInParameters): Promise<UpstreamStandIn> {
  const api = standInApis[id]
  const settings = { chainId, apiKey, memory: new Map<string, unknown>(), now }
  const requests: StandInRequest[] = []
  const pending: StandInBehaviour[] = []
  let standing = behaviour
  let limiter: { bucket: TokenBucket; of: StandInBehaviour['rateLimit'] } | undefined
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()

  const reply = async (request: StandInRequest, b: StandInBehaviour): Promise<StandInReply | 'hang' | 'reset' | 'garbage'> => {
    if (b.rateLimit) {
      if (limiter?.of !== b.rateLimit)
        limiter = { bucket: createTokenBucket({ ...b.rateLimit, capacity: b.rateLimit.burst, now }), of: b.rateLimit }
      if (!limiter.bucket.tryTake()) return api.rateLimited(Math.max(1, Math.ceil(limiter.bucket.msUntil() / 1000)))
    }
    switch (b.mode ?? 'ok') {
      case 'hang':
        return 'hang'
      case 'reset':
        return 'reset'
      case 'garbage':
        return 'garbage'
      case 'no route':
        return api.noRoute()
      case 'server error':
        return api.serverError()
      case 'rate limited':
        return api.rateLimited(1)
      case 'wrong shape':
        return api.wrongShape()
      case 'wrong amount': {
        const answer = await api.answer(request, market, settings)
        return answer.status === 200 ? api.tamper(answer) : answer
      }
      default:
        return api.answer(request, market, settings)
    }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://stand-in')
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    const request: StandInRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      text,
      json,
    }
    requests.push(request)
    const b = pending.shift() ?? standing
    const latency = typeof b.latencyMs === 'function' ? b.latencyMs() : (b.latencyMs ?? 0)
    if (latency > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          resolve()
        }, latency)
        timers.add(timer)
      })
    }
    let answer: Awaited<ReturnType<typeof reply>>
    try {
      answer = await reply(request, b)
    } catch {
      answer = api.serverError()
    }
    if (answer === 'hang') return
    if (answer === 'reset') {
      req.socket.destroy()
      return
    }
    const answered = (status: number) => {
      request.answeredAt = performance.timeOrigin + performance.now()
      request.status = status
    }
    if (answer === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>502 Bad Gateway</body></html>', () => answered(200))
      return
    }
    const body = answer.raw ?? (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body))
    res
      .writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers })
      .end(body, () => answered(answer.status))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  server.keepAliveTimeout = 60_000
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    id,
    url: `http://127.0.0.1:${port}`,
    requests,
    setBehaviour: (b) => {
      standing = b
    },
    queue: (...bs) => {
      pending.push(...bs)
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer)
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
