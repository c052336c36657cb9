export type CreateRpcBudgetParameters = {
  /** Calls started per second at most, spread evenly (a call every 1000 / n ms); 0: no rate bound. */
  callsPerSecond: number
  /** Calls in flight at once at most (at least 1). */
  maxInFlight: number
  now?: () => number
}

/** Runs a call within the budget: it starts when a slot is free and its turn in the rate has come. */
export type RpcBudget = <T>(call: () => Promise<T>) => Promise<T>

/**
 * A budget of RPC calls shared by everything that runs through it (discovery's `eth_getLogs`
 * ranges, their splits and their retries): at most `maxInFlight` at once and `callsPerSecond`
 * started per second, spread evenly rather than in bursts (providers count per second, and a burst
 * at the top of each second is what gets 429s). Calls start in the order they asked.
 *
 * @example
 * const budget = createRpcBudget({ callsPerSecond: 25, maxInFlight: 4 })
 * const logs = await budget(() => client.request({ method: 'eth_getLogs', params }))
 * // → the call's own answer; 100 calls asked at once start 40 ms apart (25 a second), never more than 4 running
 */
export function createRpcBudget({ callsPerSecond, maxInFlight, now = Date.now }: CreateRpcBudgetParameters): RpcBudget {
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw new RangeError('createRpcBudget: maxInFlight must be an integer >= 1')
  if (!(callsPerSecond >= 0)) throw new RangeError('createRpcBudget: callsPerSecond must be >= 0')
  const spacingMs = callsPerSecond > 0 ? 1000 / callsPerSecond : 0
  let inFlight = 0
  let nextStartAt = 0
  const waiting: (() => void)[] = []
  // A finished call hands its slot to the first waiting one (no newcomer can take it in between).
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else inFlight--
  }
  return async (call) => {
    if (inFlight >= maxInFlight) await new Promise<void>((resolve) => waiting.push(resolve))
    else inFlight++
    try {
      // Each start takes the next slot of the rate: a call that waited for a free slot may start at once.
      const at = Math.max(now(), nextStartAt)
      nextStartAt = at + spacingMs
      const wait = at - now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      return await call()
    } finally {
      release()
    }
  }
}
