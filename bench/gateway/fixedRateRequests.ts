/** Latencies of one fixed-rate run: p50 and p99 from each request's due time, and the statuses answered. */
export type FixedRateResult = { sent: number; p50_ms: number; p99_ms: number; statuses: Record<number, number> }

/**
 * Sends `make(i)` at `rate` per second for `durationSec`, open loop: request i is sent at its due
 * time whatever the earlier ones are doing, and its latency counts from that time (a slow server
 * cannot hide its delay by slowing the generator). In this process, for routes whose every request
 * differs (keys, sources, idempotency keys); `bench/http/constantRateLoad.ts` is the out-of-process
 * generator for identical requests.
 *
 * @example
 * const r = await fixedRateRequests({ rate: 10, durationSec: 20, make: (i) => fetch(url) })
 * // → { sent: 200, p50_ms: 4.19, p99_ms: 48.72, statuses: { 200: 200 } }
 */
export async function fixedRateRequests({
  rate,
  durationSec,
  make,
}: {
  rate: number
  durationSec: number
  make: (i: number) => Promise<Response>
}): Promise<FixedRateResult> {
  const total = Math.max(1, Math.round(rate * durationSec))
  const latencies: number[] = []
  const statuses: Record<number, number> = {}
  const start = performance.now()
  await Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const due = start + (i * 1000) / rate
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())))
      const res = await make(i)
      await res.arrayBuffer()
      latencies.push(performance.now() - due)
      statuses[res.status] = (statuses[res.status] ?? 0) + 1
    }),
  )
  latencies.sort((a, b) => a - b)
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100
  return { sent: total, p50_ms: at(0.5), p99_ms: at(0.99), statuses }
}
