import { fallback, http, type Transport } from 'viem'
import { type CircuitBreaker, type CircuitState, createCircuitBreaker } from '../../resilience/createCircuitBreaker.ts'
import { isLoopbackHttpUrl, loopbackFetch } from './loopbackFetch.ts'
import { isNodeFailure } from './isNodeFailure.ts'
import { RpcCircuitOpenError } from './RpcCircuitOpenError.ts'
import { throttleDelayMs, throttleOf } from './throttleOf.ts'

export type CreateRpcTransportParameters = {
  /** One or more JSON-RPC endpoints, tried in this order. */
  urls: readonly string[]
  /** Per-call timeout in ms (default 5000): a node that does not answer in time is a failed call. */
  timeoutMs?: number
  /** Failures in a row that open a node's circuit (default 3). */
  failureThreshold?: number
  /** How long an open circuit refuses calls before one trial (default 5000 ms, doubling per failed trial up to 60 s). */
  cooldownMs?: number
  /** Told of every failed call, per node (metrics). `kind`: the node failed, it answered with an error, or it throttled us (429). */
  onError?: (event: { url: string; method: string; kind: 'node' | 'answer' | 'circuitOpen' | 'throttled' }) => void
  /** Told of every call a node was asked (not those its open circuit skipped), with its time (metrics: calls and latency per node and method). */
  onCall?: (event: { url: string; method: string; seconds: number }) => void
  /** Times a call every node throttled is asked again (default 4), after each node's Retry-After or a doubling delay. */
  throttleRetries?: number
  /** First wait after a throttle without Retry-After (default 250 ms, doubling). */
  throttleDelayMs?: number
  /** Longest single wait after a throttle (default 10 s). */
  maxThrottleDelayMs?: number
  now?: () => number
}

export type RpcTransport = {
  transport: Transport
  /** Each node's circuit, in `urls` order (readiness and metrics). */
  nodes: () => { url: string; state: CircuitState; retryInMs: number }[]
}

/**
 * The service's RPC transport: viem's `fallback` over one `http` transport per URL, each behind a
 * circuit breaker and a per-call timeout. A call goes to the first node whose circuit is closed; a
 * node that fails (no answer, timeout, HTTP error) passes the call to the next; after
 * `failureThreshold` failures in a row a node's circuit opens and calls skip it at once, with one
 * trial call per cooldown. A JSON-RPC error answer (a revert, a refused range) is the chain's
 * answer, not a node failure: a revert is thrown at once (viem's `shouldThrow`), other answers try
 * the next node. A throttle (HTTP 429, a rate-limit answer) is a live node asking us to slow down:
 * it passes the call to the next node without counting against the circuit, and when every node
 * throttled, the call waits (the Retry-After sent, else 250 ms doubling) and is asked again, up to
 * `throttleRetries` times: a node's short throttle never fails a cold start. No other retries
 * beyond the nodes: when every node fails, the call fails at once, and the caller (the market's
 * poll, discovery's range retries) decides when to ask again.
 *
 * @example
 * const { transport } = createRpcTransport({ urls: ['https://node-a.example', 'https://node-b.example'], timeoutMs: 5000 })
 * const client = createPublicClient({ transport })
 */
export function createRpcTransport({
  urls,
  timeoutMs = 5000,
  failureThreshold = 3,
  cooldownMs = 5000,
  onError,
  onCall,
  throttleRetries = 4,
  throttleDelayMs: throttleBaseMs = 250,
  maxThrottleDelayMs = 10_000,
  now,
}: CreateRpcTransportParameters): RpcTransport {
  if (urls.length === 0) throw new RangeError('createRpcTransport: at least one URL')
  const breakers: CircuitBreaker[] = urls.map(() => createCircuitBreaker({ failureThreshold, cooldownMs, now }))
  const guarded = urls.map((url, i): Transport => {
    // A node on this machine over node:http: about half fetch's CPU per call (loopbackFetch).
    const inner = http(url, { timeout: timeoutMs, retryCount: 0, fetchFn: isLoopbackHttpUrl(url) ? loopbackFetch : undefined })
    const breaker = breakers[i]
    return (parameters) => {
      const transport = inner({ ...parameters, retryCount: 0, timeout: timeoutMs })
      return {
        ...transport,
        request: (async (args: { method: string }, options: unknown) => {
          if (!breaker.allow()) {
            onError?.({ url, method: args.method, kind: 'circuitOpen' })
            throw new RpcCircuitOpenError({ url, retryInMs: breaker.retryInMs() })
          }
          const started = performance.now()
          try {
            const result = await transport.request(args as never, options as never)
            breaker.succeeded()
            return result
          } catch (error) {
            if (throttleOf(error)) onError?.({ url, method: args.method, kind: 'throttled' })
            else if (isNodeFailure(error)) {
              breaker.failed()
              onError?.({ url, method: args.method, kind: 'node' })
            } else {
              breaker.succeeded()
              onError?.({ url, method: args.method, kind: 'answer' })
            }
            throw error
          } finally {
            onCall?.({ url, method: args.method, seconds: (performance.now() - started) / 1000 })
          }
        }) as typeof transport.request,
      }
    }
  })
  const nodes = guarded.length === 1 ? guarded[0] : fallback(guarded, { retryCount: 0 })
  const transport: Transport = (parameters) => {
    const inner = nodes(parameters)
    return {
      ...inner,
      request: (async (args: unknown, options: unknown) => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await inner.request(args as never, options as never)
          } catch (error) {
            const throttle = throttleOf(error)
            if (!throttle || attempt >= throttleRetries) throw error
            await new Promise((resolve) =>
              setTimeout(resolve, throttleDelayMs({ throttle, attempt, baseMs: throttleBaseMs, maxMs: maxThrottleDelayMs })),
            )
          }
        }
      }) as typeof inner.request,
    }
  }
  return {
    transport,
    nodes: () => urls.map((url, i) => ({ url, state: breakers[i].state(), retryInMs: breakers[i].retryInMs() })),
  }
}
