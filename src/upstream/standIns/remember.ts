import type { StandInSettings } from './StandInApi.ts'

/** Most entries a stand-in remembers; the oldest goes first (a demo may run for days). */
const MAX_ENTRIES = 10_000

/**
 * Stores what a stand-in answered for a later call (a route to build, a path to assemble), with
 * the time, forgetting the oldest entry past 10 000.
 *
 * @example
 * remember(settings, `odos:${pathId}`, { trade, userAddr })
 * const entry = settings.memory.get(`odos:${pathId}`) as { at: number; value: … } | undefined
 * // → { at: settings.now() when remembered, value: { trade, userAddr } }
 */
export function remember(settings: StandInSettings, key: string, value: unknown): void {
  settings.memory.set(key, { at: settings.now(), value })
  if (settings.memory.size > MAX_ENTRIES) settings.memory.delete(settings.memory.keys().next().value as string)
}
