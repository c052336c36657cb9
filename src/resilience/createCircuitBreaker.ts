export type CircuitState = 'closed' | 'open' | 'halfOpen'

export type CreateCircuitBreakerParameters = {
  /** Consecutive failures that open the circuit (default 3). */
  failureThreshold?: number
  /** How long an open circuit refuses calls before it lets one trial through (default 5000 ms). */
  cooldownMs?: number
  /**
   * Longest cooldown: each failed trial doubles the cooldown up to this, and a caller-given
   * cooldown (a Retry-After) is capped at it (default 60 000 ms).
   */
  maxCooldownMs?: number
  now?: () => number
}

export type CircuitBreaker = {
  /** Whether a call may go out now. An open circuit past its cooldown lets exactly one trial through (half-open). */
  allow: () => boolean
  /** The call that was allowed answered (the peer is alive, whatever it answered). */
  succeeded: () => void
  /**
   * The call that was allowed failed (no answer, a timeout, 5xx, 429, ...). `retryAfterMs` (the
   * peer's own Retry-After) opens the circuit at once for at least that long, capped at `maxCooldownMs`.
   */
  failed: (retryAfterMs?: number) => void
  /** The call that was allowed was not made after all (e.g. our own token bucket said no): no verdict. */
  cancel: () => void
  state: () => CircuitState
  /** Milliseconds until an open circuit lets a trial through (0 when it would now). */
  retryInMs: () => number
}

/**
 * A circuit breaker for one remote peer (an RPC node, an upstream aggregator): after
 * `failureThreshold` failures in a row it opens and refuses calls at once (the caller moves on or
 * answers without it instead of waiting for a timeout); after the cooldown one trial call goes
 * through: its success closes the circuit and resets the cooldown, its failure opens it again for
 * twice as long (up to `maxCooldownMs`), so a dead peer costs one call per cooldown. A failure that
 * carries the peer's Retry-After opens it at once for that long, so a rate-limited peer is left
 * alone until it said to come back.
 *
 * @example
 * const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 5000 })
 * if (breaker.allow()) {
 *   try { await call(); breaker.succeeded() } catch (error) { breaker.failed(); throw error }
 * }
 * // after 3 failures in a row allow() is false for 5 s, then lets one trial call through (state 'halfOpen')
 */
export function createCircuitBreaker({
  failureThreshold = 3,
  cooldownMs = 5000,
  maxCooldownMs = 60_000,
  now = Date.now,
}: CreateCircuitBreakerParameters = {}): CircuitBreaker {
  if (!Number.isInteger(failureThreshold) || failureThreshold < 1)
    throw new RangeError(`failureThreshold must be a positive integer: ${failureThreshold}`)
  if (!(cooldownMs > 0) || !(maxCooldownMs >= cooldownMs))
    throw new RangeError(`need 0 < cooldownMs <= maxCooldownMs: ${cooldownMs}, ${maxCooldownMs}`)
  let opened = false
  let openUntil = 0
  let failures = 0
  let cooldown = cooldownMs
  let trialInFlight = false
  // Open until a trial is actually let through (past the cooldown it stays open for whoever asks,
  // e.g. /ready's "every circuit open", until the next call tries the peer).
  const state = (): CircuitState => (!opened ? 'closed' : trialInFlight ? 'halfOpen' : 'open')
  const open = (ms: number) => {
    opened = true
    openUntil = Math.max(openUntil, now() + ms)
    trialInFlight = false
  }
  return {
    state,
    retryInMs: () => (opened ? Math.max(0, openUntil - now()) : 0),
    allow: () => {
      if (!opened) return true
      if (trialInFlight || now() < openUntil) return false
      trialInFlight = true
      return true
    },
    succeeded: () => {
      opened = false
      openUntil = 0
      failures = 0
      cooldown = cooldownMs
      trialInFlight = false
    },
    cancel: () => {
      trialInFlight = false
    },
    failed: (retryAfterMs) => {
      const wasTrial = trialInFlight
      trialInFlight = false
      failures += 1
      if (wasTrial) {
        cooldown = Math.min(maxCooldownMs, cooldown * 2)
        open(cooldown)
      } else if (failures >= failureThreshold) {
        open(cooldown)
      }
      if (retryAfterMs !== undefined && retryAfterMs > 0) open(Math.min(retryAfterMs, maxCooldownMs))
    },
  }
}
