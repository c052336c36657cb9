export type CircuitState = 'closed' | 'open' | 'half-open'

export type CircuitBreaker = {
  /** Whether a call may go out now; in half-open, only one trial call at a time. */
  allow: () => boolean
  /** The call that `allow` let through succeeded (or answered "no route": a healthy answer). */
  success: () => void
  /** It failed; `cooldownMs` (an upstream's Retry-After) opens the breaker for at least that long. */
  failure: (cooldownMs?: number) => void
  /** The call `allow` let through was not made after all (our own token bucket said no): no verdict. */
  cancel: () => void
  state: () => CircuitState
  /** Milliseconds until an open breaker lets a trial call through. */
  msUntilRetry: () => number
}

export type CreateCircuitBreakerParameters = {
  /** Consecutive failures that open the breaker (default 5). */
  failureThreshold?: number
  /** How long it stays open before a trial call (default 30 000 ms). */
  openMs?: number
  /** Longest cooldown an upstream's Retry-After may impose (default 60 000 ms). */
  maxCooldownMs?: number
  now?: () => number
}

/**
 * A circuit breaker for one upstream: after `failureThreshold` failures in a row (timeouts, 5xx,
 * 429s, malformed answers) it opens, and calls are not made for `openMs`; then one trial call goes
 * out (half-open): its success closes the breaker, its failure opens it again. A 429 with a
 * Retry-After opens it for that long at once, so a rate-limited upstream is left alone until it
 * said to come back. A request fans out to every upstream, so a dead one must cost nothing.
 *
 * @example
 * const breaker = createCircuitBreaker({ failureThreshold: 5, openMs: 30_000 })
 * if (breaker.allow()) { try { await call(); breaker.success() } catch { breaker.failure() } }
 */
export function createCircuitBreaker({ failureThreshold = 5, openMs = 30_000, maxCooldownMs = 60_000, now = Date.now }: CreateCircuitBreakerParameters = {}): CircuitBreaker {
  let failures = 0
  let openUntil = 0
  let trialInFlight = false
  let opened = false
  const state = (): CircuitState => (!opened ? 'closed' : now() < openUntil ? 'open' : 'half-open')
  const open = (ms: number) => {
    opened = true
    openUntil = Math.max(openUntil, now() + ms)
    trialInFlight = false
  }
  return {
    state,
    msUntilRetry: () => Math.max(0, openUntil - now()),
    allow: () => {
      const s = state()
      if (s === 'closed') return true
      if (s === 'open' || trialInFlight) return false
      trialInFlight = true
      return true
    },
    success: () => {
      failures = 0
      opened = false
      openUntil = 0
      trialInFlight = false
    },
    cancel: () => {
      trialInFlight = false
    },
    failure: (cooldownMs) => {
      failures += 1
      const wasTrial = opened && trialInFlight
      trialInFlight = false
      if (cooldownMs !== undefined && cooldownMs > 0) open(Math.min(cooldownMs, maxCooldownMs))
      if (wasTrial || failures >= failureThreshold) open(openMs)
    },
  }
}
