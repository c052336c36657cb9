/**
 * Latencies (ms) drawn from the log-normal distribution with the given median and 95th percentile,
 * the shape request latencies of a remote API take: 0x publishes p50 ≈ 340 ms and p95 ≈ 500 ms for
 * /price. `random` is injectable for reproducible runs.
 *
 * @example
 * const latency = latencySampler({ p50Ms: 340, p95Ms: 500 })
 * latency() // e.g. 327.4
 */
export function latencySampler({
  p50Ms,
  p95Ms,
  random = Math.random,
}: {
  p50Ms: number
  p95Ms: number
  random?: () => number
}): () => number {
  const mu = Math.log(p50Ms)
  const sigma = Math.log(p95Ms / p50Ms) / 1.6448536269514722
  return () => {
    // Box-Muller: one standard normal from two uniforms in (0, 1].
    const u = 1 - random()
    const v = random()
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
    return Math.exp(mu + sigma * z)
  }
}
