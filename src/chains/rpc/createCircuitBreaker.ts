export type CircuitState = 'closed' | 'open' | 'halfOpen'

export type CreateCircuitBreakerParameters = {
  /** Consecutive failures that open the circuit (default 3). */
  failureThreshold?: number
  /** How long an open circuit refuses calls before it lets one trial through (default 5000 ms). */
  cooldownMs?: number
  /** Longest cooldown after repeated failed trials: each failed trial doubles it (default 60000 ms). */
  maxCooldownMs?: number
  now?: () => number
}

export type CircuitBreaker = {
  /** Whether a call may go out now. An open circuit past its cooldown lets exactly one trial through (half-open). */
  allow: () => boolean
  /** The call that was allowed answered (the node is alive, whatever it answered). */
  succeeded: () => void
  /** The call that was allowed failed for a transport reason (no answer, timeout, 5xx, 429). */
  failed: () => void
  state: () => CircuitState
  /** Milliseconds until an open circuit lets a trial through (0 when it would now). */
  retryInMs: () => number
}

/**
 * A circuit breaker for one node: after `failureThreshold` transport failures in a row it opens and
 * refuses calls at once (the caller moves on to another node instead of waiting for a timeout);
 * after `cooldownMs` one trial call goes through: its success closes the circuit, its failure opens
 * it again for twice as long (up to `maxCooldownMs`), so a dead node costs one call per cooldown.
 *
 * @example
 * const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 5000 })
 * if (breaker.allow()) {
 *   try { await call(); breaker.succeeded() } catch (error) { breaker.failed(); throw error }
 * }
 */
export function createCircuitBreaker({
  failureThreshold = 3,
  cooldownMs = 5000,
  maxCooldownMs = 60_000,
  now = Date.now,
}: CreateCircuitBreakerParameters = {}): CircuitBreaker {
  if (!Number.isInteger(failureThreshold) || failureThreshold < 1) throw new RangeError(`failureThreshold must be a positive integer: ${failureThreshold}`)
  let state: CircuitState = 'closed'
  let failures = 0
  let openedAt = 0
  let cooldown = cooldownMs
  let trialInFlight = false
  const open = () => {
    state = 'open'
    openedAt = now()
    trialInFlight = false
  }
  return {
    allow: () => {
      if (state === 'closed') return true
      if (state === 'open' && now() - openedAt >= cooldown) {
        state = 'halfOpen'
        trialInFlight = true
        return true
      }
      return false
    },
    succeeded: () => {
      state = 'closed'
      failures = 0
      cooldown = cooldownMs
      trialInFlight = false
    },
    failed: () => {
      if (state === 'halfOpen' || trialInFlight) {
        cooldown = Math.min(maxCooldownMs, cooldown * 2)
        open()
        return
      }
      failures++
      if (failures >= failureThreshold) open()
    },
    state: () => state,
    retryInMs: () => (state === 'open' ? Math.max(0, cooldown - (now() - openedAt)) : 0),
  }
}
