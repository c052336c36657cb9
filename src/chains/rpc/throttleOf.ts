import { BaseError, HttpRequestError, RpcRequestError } from 'viem'

/** A node's "slow down": how long it asked us to wait, when it said so. */
export type Throttle = { retryAfterMs?: number }

/** The wordings of a rate limit in JSON-RPC error answers (Alchemy, QuickNode, Infura, public Base nodes). */
const RATE_LIMITED =
  /rate.?limit|too many requests|requests per second|request limit reached|throttl|exceeded (?:the )?(?:rate|quota|capacity|compute units|throughput)|over (?:rate|quota)/i

/** Retry-After: delta seconds or an HTTP date (RFC 9110 §10.2.3). */
const parseRetryAfter = (value: string | null | undefined, now: number): number | undefined => {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * Whether an RPC failure is the node throttling us (HTTP 429, a JSON-RPC answer with code 429 or
 * a rate-limit wording), with its Retry-After when it sent one. A throttle means "ask again later",
 * never "the range is too large" (splitting would only multiply the calls) nor "the node is dead".
 *
 * @example
 * throttleOf(new HttpRequestError({ url: 'http://node', status: 429 })) // { retryAfterMs: undefined }
 * throttleOf(new Error('execution reverted')) // undefined
 */
export function throttleOf(error: unknown, now = Date.now()): Throttle | undefined {
  if (error instanceof BaseError) {
    const http = error.walk((e) => e instanceof HttpRequestError && e.status === 429) as HttpRequestError | null
    if (http) return { retryAfterMs: parseRetryAfter(http.headers?.get('retry-after'), now) }
    const rpc = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null
    if (rpc && (rpc.code === 429 || RATE_LIMITED.test(rpc.details ?? ''))) return {}
    if (RATE_LIMITED.test(error.details ?? '') || RATE_LIMITED.test(error.shortMessage)) return {}
    return undefined
  }
  const message = error instanceof Error ? error.message : String(error)
  return /\b429\b/.test(message) || RATE_LIMITED.test(message) ? {} : undefined
}

/**
 * How long to wait before asking a throttling node again: its Retry-After when it sent one, else
 * `baseMs` doubled per throttle in a row; at most `maxMs`.
 *
 * @example
 * throttleDelayMs({ throttle: { retryAfterMs: 2000 }, attempt: 0, baseMs: 250, maxMs: 30_000 }) // 2000
 */
export function throttleDelayMs({
  throttle,
  attempt,
  baseMs,
  maxMs,
}: {
  throttle: Throttle
  attempt: number
  baseMs: number
  maxMs: number
}): number {
  return Math.min(maxMs, throttle.retryAfterMs ?? baseMs * 2 ** attempt)
}
