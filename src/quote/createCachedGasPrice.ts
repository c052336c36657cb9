export type CreateCachedGasPriceParameters = {
  /** Reads the chain's gas price in wei (e.g. `() => publicClient.getGasPrice()`). */
  read: () => Promise<bigint>
  /** A read is reused this long (default 1000 ms: half a Base block). */
  maxAgeMs?: number
  now?: () => number
}

/**
 * The chain's gas price, read at most once per `maxAgeMs` however many quotes ask (concurrent
 * callers share one read in flight). A failed read is not cached: the next call tries again.
 *
 * @example
 * const getGasPriceWei = createCachedGasPrice({ read: () => publicClient.getGasPrice() })
 * await getGasPriceWei() // 1000000n
 */
export function createCachedGasPrice({ read, maxAgeMs = 1000, now = Date.now }: CreateCachedGasPriceParameters): () => Promise<bigint> {
  let value: bigint | undefined
  let readAt = -Infinity
  let inFlight: Promise<bigint> | undefined
  return async () => {
    if (value !== undefined && now() - readAt < maxAgeMs) return value
    inFlight ??= read().then(
      (v) => {
        value = v
        readAt = now()
        inFlight = undefined
        return v
      },
      (error: unknown) => {
        inFlight = undefined
        throw error
      },
    )
    return inFlight
  }
}
