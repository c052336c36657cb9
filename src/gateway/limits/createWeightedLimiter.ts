import type { LimitDecision, PolicyCharge, PolicyState } from './LimitPolicy.ts'
import type { UsageTally, WeightedLimiter } from './WeightedLimiter.ts'

const DAY_MS = 86_400_000

type WindowState = { times: number[]; units: number[]; head: number; sum: number }
type CalendarState = { period: number; used: number }

/**
 * The gateway's limiter engine in memory: GCRA for per-second bursts, exact sliding windows for
 * per-minute limits, UTC calendar counters for days and months, and counters for in-flight
 * leases. All policies of one request are checked and consumed together or not at all, in one
 * synchronous step (Node runs one at a time), so concurrent requests of this process are counted
 * exactly; instances do not share it (`createRedisWeightedLimiter` is the shared engine).
 *
 * @example
 * const limiter = createWeightedLimiter({})
 * const decision = await limiter.consume([{ policy: { kind: 'burst', name: 'burst', key: 'k:burst', perSecond: 20 }, group: 'plan', cost: 2 }])
 * // → { allowed: true, states: [{ name: 'burst', group: 'plan', limit: 20, remaining: 18, resetSec: 1, windowSec: 1 }], release }
 */
export function createWeightedLimiter({
  now = Date.now,
  onUsage = () => {},
}: {
  now?: () => number
  /** Told each tallied decision in the same synchronous step (the usage recorder's `record`). */
  onUsage?: (keyPrefix: string, units: number, admitted: boolean) => void
} = {}): WeightedLimiter {
  const tats = new Map<string, number>()
  const windows = new Map<string, WindowState>()
  const calendars = new Map<string, CalendarState>()
  const inFlight = new Map<string, number>()

  const periodOf = (period: 'day' | 'month', t: number) => {
    if (period === 'day') return Math.floor(t / DAY_MS)
    const d = new Date(t)
    return d.getUTCFullYear() * 12 + d.getUTCMonth()
  }
  const periodEnd = (period: 'day' | 'month', t: number) => {
    if (period === 'day') return (Math.floor(t / DAY_MS) + 1) * DAY_MS
    const d = new Date(t)
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
  }
  const windowOf = (key: string, windowMs: number, t: number): WindowState => {
    let w = windows.get(key)
    if (!w) {
      w = { times: [], units: [], head: 0, sum: 0 }
      windows.set(key, w)
    }
    while (w.head < w.times.length && w.times[w.head] <= t - windowMs) {
      w.sum -= w.units[w.head]
      w.head++
    }
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head)
      w.units = w.units.slice(w.head)
      w.head = 0
    }
    return w
  }
  const calendarOf = (key: string, period: 'day' | 'month', t: number): CalendarState => {
    const id = periodOf(period, t)
    let c = calendars.get(key)
    if (!c || c.period !== id) {
      c = { period: id, used: 0 }
      calendars.set(key, c)
    }
    return c
  }

  /** Whether a charge fits, how long until it would, and the policy's state with or without it. */
  const evaluate = (charge: PolicyCharge, t: number): { fits: boolean; retryAfterMs: number; state: (taken: boolean) => PolicyState } => {
    const { policy, group, cost } = charge
    switch (policy.kind) {
      case 'burst': {
        const interval = 1000 / policy.perSecond
        const start = Math.max(tats.get(policy.key) ?? t, t)
        const next = start + cost * interval
        // A tolerance of one second's worth of units: the burst.
        const over = next - t - 1000
        return {
          fits: over <= 1e-9,
          retryAfterMs: Math.max(0, over),
          state: (taken) => {
            const tat = taken ? next : start
            return {
              name: policy.name,
              group,
              limit: policy.perSecond,
              remaining: Math.max(0, Math.floor((1000 - (tat - t)) / interval + 1e-9)),
              resetSec: Math.ceil((tat - t) / 1000),
              windowSec: 1,
            }
          },
        }
      }
      case 'window': {
        const w = windowOf(policy.key, policy.windowMs, t)
        const fits = w.sum + cost <= policy.limit
        let retryAfterMs = 0
        if (!fits) {
          if (cost > policy.limit) retryAfterMs = policy.windowMs
          else {
            // The oldest charges must leave until this one fits.
            let freed = 0
            const needed = w.sum + cost - policy.limit
            for (let i = w.head; i < w.times.length; i++) {
              freed += w.units[i]
              if (freed >= needed) {
                retryAfterMs = w.times[i] + policy.windowMs - t
                break
              }
            }
          }
        }
        return {
          fits,
          retryAfterMs,
          state: (taken) => {
            const used = w.sum + (taken ? cost : 0)
            const oldest = w.head < w.times.length ? w.times[w.head] : taken ? t : undefined
            return {
              name: policy.name,
              group,
              limit: policy.limit,
              remaining: Math.max(0, policy.limit - used),
              resetSec: oldest === undefined ? 0 : Math.ceil((oldest + policy.windowMs - t) / 1000),
              windowSec: policy.windowMs / 1000,
            }
          },
        }
      }
      case 'calendar': {
        const c = calendarOf(policy.key, policy.period, t)
        const end = periodEnd(policy.period, t)
        const fits = c.used + cost <= policy.limit
        return {
          fits,
          retryAfterMs: fits ? 0 : end - t,
          state: (taken) => ({
            name: policy.name,
            group,
            limit: policy.limit,
            remaining: Math.max(0, policy.limit - c.used - (taken ? cost : 0)),
            resetSec: Math.ceil((end - t) / 1000),
            windowSec:
              policy.period === 'day'
                ? 86_400
                : Math.round((end - Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), 1)) / 1000),
          }),
        }
      }
      case 'concurrency': {
        const count = inFlight.get(policy.key) ?? 0
        const fits = count + 1 <= policy.limit
        // A lease ends with its response: no time is known; one second is the client's next look.
        return {
          fits,
          retryAfterMs: fits ? 0 : 1000,
          state: (taken) => ({
            name: policy.name,
            group,
            limit: policy.limit,
            remaining: Math.max(0, policy.limit - count - (taken ? 1 : 0)),
            resetSec: 0,
            windowSec: 0,
          }),
        }
      }
    }
  }

  const take = (charge: PolicyCharge, t: number): (() => void) | undefined => {
    const { policy, cost } = charge
    switch (policy.kind) {
      case 'burst':
        tats.set(policy.key, Math.max(tats.get(policy.key) ?? t, t) + (cost * 1000) / policy.perSecond)
        return undefined
      case 'window': {
        const w = windows.get(policy.key)!
        w.times.push(t)
        w.units.push(cost)
        w.sum += cost
        return undefined
      }
      case 'calendar':
        calendars.get(policy.key)!.used += cost
        return undefined
      case 'concurrency': {
        inFlight.set(policy.key, (inFlight.get(policy.key) ?? 0) + 1)
        let released = false
        return () => {
          if (released) return
          released = true
          const left = (inFlight.get(policy.key) ?? 1) - 1
          if (left > 0) inFlight.set(policy.key, left)
          else inFlight.delete(policy.key)
        }
      }
    }
  }

  const consume = (charges: readonly PolicyCharge[], usage?: UsageTally): LimitDecision => {
    const decision = decide(charges)
    if (usage) onUsage(usage.keyPrefix, decision.allowed ? usage.units : 0, decision.allowed)
    return decision
  }
  const decide = (charges: readonly PolicyCharge[]): LimitDecision => {
    const t = now()
    const evaluated = charges.map((c) => evaluate(c, t))
    const violated = evaluated.flatMap((e, i) =>
      e.fits ? [] : [{ name: charges[i].policy.name, group: charges[i].group, retryAfterMs: e.retryAfterMs }],
    )
    if (violated.length > 0) {
      return {
        allowed: false,
        states: evaluated.map((e) => e.state(false)),
        violated,
        retryAfterMs: Math.max(...violated.map((v) => v.retryAfterMs)),
      }
    }
    const states = evaluated.map((e) => e.state(true))
    const releases = charges.map((c) => take(c, t)).filter((r): r is () => void => r !== undefined)
    return { allowed: true, states, release: async () => releases.forEach((r) => r()) }
  }
  return {
    consume: async (charges, usage) => consume(charges, usage),
    peek: async (charges) => {
      const t = now()
      return charges.map((c) => evaluate(c, t).state(false))
    },
    seedCalendar: async (policy, used) => {
      calendarOf(policy.key, policy.period, now()).used = used
    },
    sweep: () => {
      const t = now()
      for (const [key, tat] of tats) if (tat <= t) tats.delete(key)
      for (const [key, w] of windows) if (w.times.length === 0 || w.times[w.times.length - 1] <= t - 3_600_000) windows.delete(key)
    },
  }
}
