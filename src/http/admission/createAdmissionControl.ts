import { createHistogram, performance } from 'node:perf_hooks'

export type AdmissionDecision =
  { admitted: true; release: () => void } | { admitted: false; reason: 'service' | 'key' | 'eventLoop'; message: string }

export type AdmissionControl = {
  /** A solve for `keyId` may start now, or why not. An admitted solve must be released once, when it ends. */
  enter: (keyId: string) => AdmissionDecision
  /** Solves in flight, all keys. */
  inFlight: () => number
  /** The event loop's recent delay (p99 over the last sample window), ms. */
  eventLoopDelayMs: () => number
  close: () => void
}

/** The delay sampler's period, ms: a sample is the time between two of its ticks (as `monitorEventLoopDelay({ resolution: 10 })` recorded it). */
const SAMPLE_EVERY_MS = 10

export type CreateAdmissionControlParameters = {
  /** Solves in flight at once, all keys (`MAX_CONCURRENT_SOLVES`). */
  maxConcurrent: number
  /** Solves in flight at once per API key (`MAX_CONCURRENT_SOLVES_PER_KEY`). */
  maxConcurrentPerKey: number
  /** Above this event-loop delay (p99 of the last window), new solves are shed (`MAX_EVENT_LOOP_DELAY_MS`; 0: never). */
  maxEventLoopDelayMs: number
  /** The delay is sampled over windows of this length (default 500 ms). */
  windowMs?: number
}

/**
 * Admission control for solves (`/quote`, `/execute`): a bound on the solves in flight per API key
 * (one key cannot take the solver pool from the others) and overall (the solver's thread pool and
 * the event loop stay short of saturation), and load shedding while the event loop is late (its
 * delay's p99 over the last window above the bound). A refused solve is answered 503 at once with
 * `Retry-After: 1`, before any work, rather than queued behind work it would only slow further.
 *
 * @example
 * const admission = createAdmissionControl({ maxConcurrent: 64, maxConcurrentPerKey: 16, maxEventLoopDelayMs: 200 })
 * const decision = admission.enter(keyId)
 * // → { admitted: true, release } or { admitted: false, reason: 'service' | 'key' | 'eventLoop', message }
 * if (decision.admitted) try { await solve() } finally { decision.release() }
 */
export function createAdmissionControl({
  maxConcurrent,
  maxConcurrentPerKey,
  maxEventLoopDelayMs,
  windowMs = 500,
}: CreateAdmissionControlParameters): AdmissionControl {
  let total = 0
  const perKey = new Map<string, number>()
  // The loop's delay is sampled here, not by `monitorEventLoopDelay`: its sampler records the time
  // between two of its ticks, and its `reset()` forgets the last tick, so a window that reset it after
  // a block and before its sampler's next tick (the order whenever the window's timer runs first, as
  // on a loaded machine) lost the block. Here the last tick survives the window, and the window
  // samples first, so every block is in the first window that runs after it.
  const histogram = createHistogram()
  let lastTickNs = performance.now() * 1e6
  const sample = () => {
    const nowNs = performance.now() * 1e6
    histogram.record(Math.max(1, Math.round(nowNs - lastTickNs)))
    lastTickNs = nowNs
  }
  const sampler = setInterval(sample, SAMPLE_EVERY_MS)
  sampler.unref()
  let delayMs = 0
  let windows = 0
  const timer = setInterval(() => {
    sample()
    // The first window holds the start's own work (building the app, the first solves' setup): not load.
    delayMs = windows++ > 0 ? histogram.percentile(99) / 1e6 : 0
    histogram.reset()
  }, windowMs)
  timer.unref()
  return {
    enter: (keyId) => {
      if (maxEventLoopDelayMs > 0 && delayMs > maxEventLoopDelayMs)
        return {
          admitted: false,
          reason: 'eventLoop',
          message: `overloaded: the event loop is ${Math.round(delayMs)} ms late (bound ${maxEventLoopDelayMs} ms), retry shortly`,
        }
      if (total >= maxConcurrent)
        return {
          admitted: false,
          reason: 'service',
          message: `overloaded: ${total} solves in flight (bound ${maxConcurrent}), retry shortly`,
        }
      const mine = perKey.get(keyId) ?? 0
      if (mine >= maxConcurrentPerKey)
        return {
          admitted: false,
          reason: 'key',
          message: `overloaded: this API key has ${mine} solves in flight (bound ${maxConcurrentPerKey}), retry when one ends`,
        }
      total++
      perKey.set(keyId, mine + 1)
      let released = false
      return {
        admitted: true,
        release: () => {
          if (released) return
          released = true
          total--
          const left = (perKey.get(keyId) ?? 1) - 1
          if (left === 0) perKey.delete(keyId)
          else perKey.set(keyId, left)
        },
      }
    },
    inFlight: () => total,
    eventLoopDelayMs: () => delayMs,
    close: () => {
      clearInterval(timer)
      clearInterval(sampler)
    },
  }
}
