/**
 * One limit a request is checked against. Units are the route's weighted units (spec §8) or, for
 * `requests` windows, one per request.
 * - `burst`: GCRA, `perSecond` units per second with a burst of as many (spec §8 "burst/sec").
 * - `window`: at most `limit` in any sliding `windowMs` (exact: every admitted charge is kept until it leaves).
 * - `calendar`: at most `limit` per UTC day or month (resets at the boundary).
 * - `concurrency`: at most `limit` requests in flight (a lease, released when the response ends).
 */
export type LimitPolicy =
  | { kind: 'burst'; name: string; key: string; perSecond: number }
  | { kind: 'window'; name: string; key: string; limit: number; windowMs: number }
  | { kind: 'calendar'; name: string; key: string; limit: number; period: 'day' | 'month' }
  | { kind: 'concurrency'; name: string; key: string; limit: number }

/** Whose limit a policy is: the key's plan (`rate_limit_exceeded`) or a safety ceiling (`quota_exceeded`). */
export type PolicyGroup = 'plan' | 'ceiling'

/** A policy and what this request would take from it. */
export type PolicyCharge = { policy: LimitPolicy; group: PolicyGroup; cost: number }

/** Where a policy stands (after the request when it was admitted). */
export type PolicyState = {
  name: string
  group: PolicyGroup
  limit: number
  remaining: number
  /** Seconds until the policy's state frees up (the window's `t`). */
  resetSec: number
  /** The policy's window in seconds (0 for concurrency). */
  windowSec: number
}

export type LimitDecision =
  | { allowed: true; states: PolicyState[]; release: () => Promise<void> }
  | { allowed: false; states: PolicyState[]; violated: { name: string; group: PolicyGroup; retryAfterMs: number }[]; retryAfterMs: number }
