import { Pool } from 'undici'
import { UpstreamError } from '../UpstreamError.ts'

export type UpstreamHttpRequest = {
  method: 'GET' | 'POST'
  /** Path under the client's base URL, e.g. `/swap/allowance-holder/price`. */
  path: string
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | undefined>
  /** A JSON body (POST), serialised here. */
  body?: unknown
  /** A JSON body already serialised (sent byte for byte; KyberSwap's route back to /route/build). */
  rawBody?: string
  /** Absolute deadline, on the client's clock (ms): the call is aborted then. */
  deadline: number
}

export type UpstreamHttpResponse = {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: unknown
  /** The raw body (at most `maxBodyBytes`). */
  text: string
}

export type UpstreamHttpClient = {
  request: (request: UpstreamHttpRequest) => Promise<UpstreamHttpResponse>
  close: () => Promise<void>
}

export type CreateUpstreamHttpClientParameters = {
  /** Origin and optional path prefix, e.g. `https://api.0x.org` or `https://api.kyberswap.com/swap`. */
  baseUrl: string
  /** Sent on every request (auth headers). Never logged, never part of an error message. */
  headers?: Record<string, string>
  /** Keep-alive connections kept to this upstream (default 8). */
  connections?: number
  /** Larger bodies are refused as `invalid response` (default 2 MiB). */
  maxBodyBytes?: number
  /**
   * Asked before the one retry a call may get; false skips it (the caller's token bucket is empty).
   * A retry happens only where it is safe: the request never reached the server (connection
   * refused), or an idempotent GET met a reset connection or a 502/503/504.
   */
  mayRetry?: () => boolean
  now?: () => number
}

const RETRYABLE_STATUS = new Set([502, 503, 504])
/** Connection errors after which the request was certainly not processed. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT'])
/** Connection errors a GET may be retried after (a keep-alive socket closed under us). */
const RESET = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED'])
/** undici's header/body timeouts sit this far past the deadline (more than one of its timer ticks). */
const BACKSTOP_MS = 1_000

/** A retry is not worth starting with less time than this left. */
const MIN_RETRY_MS = 25

/**
 * One pooled HTTP client per upstream (undici `Pool`: keep-alive connections, HTTP/1.1
 * pipelining off), with a hard deadline per call, a cap on the body size, JSON parsing, and at most
 * one retry where it is safe. Transport failures become `UpstreamError`s (`timeout`, `network`);
 * every status comes back to the caller (the adapter decides what a 400 means for its API).
 *
 * @example
 * const client = createUpstreamHttpClient({ baseUrl: 'https://api.0x.org', headers: { '0x-api-key': key, '0x-version': 'v2' } })
 * const res = await client.request({ method: 'GET', path: '/swap/allowance-holder/price', query: { chainId: '8453', … }, deadline: Date.now() + 800 })
 */
export function createUpstreamHttpClient({
  baseUrl,
  headers = {},
  connections = 8,
  maxBodyBytes = 2 * 2 ** 20,
  mayRetry = () => true,
  now = Date.now,
}: CreateUpstreamHttpClientParameters): UpstreamHttpClient {
  const url = new URL(baseUrl)
  const prefix = url.pathname.replace(/\/+$/, '')
  const pool = new Pool(url.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: 10_000 },
  })
  const baseHeaders = { accept: 'application/json', 'user-agent': 'base-swap-aggregator/0.1', ...headers }

  const once = async (request: UpstreamHttpRequest): Promise<UpstreamHttpResponse> => {
    const remaining = request.deadline - now()
    if (remaining <= 0) throw new UpstreamError('timeout', 'no time left in the request budget: not called')
    const query = Object.entries(request.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined)
    const path = `${prefix}${request.path}${query.length ? `?${new URLSearchParams(query).toString()}` : ''}`
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), remaining)
    try {
      const body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body))
      const res = await pool.request({
        method: request.method,
        path,
        headers: body === undefined ? baseHeaders : { ...baseHeaders, 'content-type': 'application/json' },
        body,
        signal: controller.signal,
        // The abort above (a native timer) is the deadline. undici's own header and body timeouts
        // run on its coarse timers (≈0.5 s ticks) and can fire up to a tick early: set to the
        // deadline they cut calls that would have answered in time, so they are only a backstop.
        headersTimeout: remaining + BACKSTOP_MS,
        bodyTimeout: remaining + BACKSTOP_MS,
      })
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of res.body) {
        size += chunk.length
        if (size > maxBodyBytes) {
          res.body.destroy()
          throw new UpstreamError('invalid response', `body over ${maxBodyBytes} bytes`)
        }
        chunks.push(chunk)
      }
      const text = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = text.length ? JSON.parse(text) : undefined
      } catch {
        json = undefined
      }
      return { status: res.statusCode, headers: res.headers, json, text }
    } catch (error) {
      if (error instanceof UpstreamError) throw error
      if (controller.signal.aborted || isTimeoutCode(error))
        throw new UpstreamError('timeout', `no answer within ${remaining} ms`, { cause: error })
      throw new UpstreamError('network', `connection failed (${errorCode(error) ?? 'error'})`, { cause: error })
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    request: async (request) => {
      try {
        const res = await once(request)
        if (request.method === 'GET' && RETRYABLE_STATUS.has(res.status) && request.deadline - now() > MIN_RETRY_MS && mayRetry())
          return await once(request)
        return res
      } catch (error) {
        const code = errorCode((error as UpstreamError).cause)
        const safe = code !== undefined && (NOT_SENT.has(code) || (request.method === 'GET' && RESET.has(code)))
        if (error instanceof UpstreamError && error.kind === 'network' && safe && request.deadline - now() > MIN_RETRY_MS && mayRetry())
          return once(request)
        throw error
      }
    },
    close: () => pool.close(),
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code
  if (typeof code === 'string') return code
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return typeof cause === 'string' ? cause : undefined
}

function isTimeoutCode(error: unknown): boolean {
  const code = errorCode(error)
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_ABORTED'
}
