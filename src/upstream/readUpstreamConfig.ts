import { pacedRatePerSec } from './pacedRatePerSec.ts'
import { upstreamIds, upstreamRegistry } from './registry.ts'
import type { UpstreamId, UpstreamSettings } from './UpstreamAdapter.ts'

/** The upstream part of the configuration (docs/upstreams.md, "Configuration"). */
export type UpstreamsConfig = {
  /** The upstreams to ask, in order (`UPSTREAMS`); empty: /quote/compare and /quote/split are not served. */
  ids: UpstreamId[]
  /** `UPSTREAMS_DEMO=1`: the upstreams are local stand-ins, labelled `simulated:<id>`. */
  demo: boolean
  /** The request budget when `timeBudgetMs` is absent (`UPSTREAM_TIME_BUDGET_MS`). */
  timeBudgetMs: number
  settings: Partial<Record<UpstreamId, UpstreamSettings>>
}

/** The default request budget: 0x's /price p95 (500 ms) three times over, with room for a second round with a taker. */
export const DEFAULT_UPSTREAM_TIME_BUDGET_MS = 1500

/**
 * Reads `UPSTREAMS` (comma-separated ids: 0x, 1inch, kyberswap, odos, velora, openocean),
 * `UPSTREAMS_DEMO`, `UPSTREAM_TIME_BUDGET_MS` and each listed upstream's `UPSTREAM_<NAME>_API_KEY`,
 * `_URL`, `_RPS`, `_BURST` and options, with the registry's defaults (its published free tier,
 * paced at PACED_SHARE of its rate).
 * Every problem is pushed onto `problems`, naming the variable and never printing a key.
 *
 * @example
 * const problems: string[] = []
 * const upstreams = readUpstreamConfig({ UPSTREAMS: '0x,kyberswap', UPSTREAM_ZEROEX_API_KEY: key }, problems)
 * // → { ids: ['0x', 'kyberswap'], demo: false, timeBudgetMs: 1500, settings: { '0x': { baseUrl: 'https://api.0x.org', ratePerSec: 4, burst: 5, … }, kyberswap: … } }; problems stays []
 */
export function readUpstreamConfig(env: Record<string, string | undefined>, problems: string[]): UpstreamsConfig {
  const value = (name: string) => {
    const v = env[name]
    return v === undefined || v.trim() === '' ? undefined : v.trim()
  }
  const demoRaw = value('UPSTREAMS_DEMO')
  if (demoRaw !== undefined && !['0', '1', 'true', 'false'].includes(demoRaw))
    problems.push(`UPSTREAMS_DEMO: must be 1 or 0 (got ${JSON.stringify(demoRaw)})`)
  const demo = demoRaw === '1' || demoRaw === 'true'
  const listed = value('UPSTREAMS')
  const ids: UpstreamId[] = []
  for (const raw of (listed ?? (demo ? upstreamIds.join(',') : '')).split(',')) {
    const id = raw.trim().toLowerCase()
    if (id === '') continue
    if (!(upstreamIds as string[]).includes(id))
      problems.push(`UPSTREAMS: unknown upstream ${JSON.stringify(raw.trim())} (known: ${upstreamIds.join(', ')})`)
    else if (!ids.includes(id as UpstreamId)) ids.push(id as UpstreamId)
  }
  let timeBudgetMs = DEFAULT_UPSTREAM_TIME_BUDGET_MS
  const budget = value('UPSTREAM_TIME_BUDGET_MS')
  if (budget !== undefined) {
    if (!/^[0-9]+$/.test(budget) || Number(budget) < 50 || Number(budget) > 10_000)
      problems.push(`UPSTREAM_TIME_BUDGET_MS: must be an integer in 50..10000 (got ${JSON.stringify(budget)})`)
    else timeBudgetMs = Number(budget)
  }
  const settings: UpstreamsConfig['settings'] = {}
  for (const id of ids) {
    const kind = upstreamRegistry[id]
    const name = (v: string) => `UPSTREAM_${kind.envName}_${v}`
    const apiKey = value(name('API_KEY'))
    if (kind.requiresApiKey && !apiKey && !demo) problems.push(`${name('API_KEY')}: required to use ${id} (listed in UPSTREAMS)`)
    const urlSet = value(name('URL'))
    if (urlSet !== undefined && !/^https?:\/\/[^\s/]+/.test(urlSet)) problems.push(`${name('URL')}: must be an http(s) URL`)
    if (apiKey && !urlSet && kind.keyNeedsUrl && !demo) problems.push(`${name('API_KEY')}: ${kind.keyNeedsUrl}`)
    const rps = value(name('RPS'))
    const ratePerSec = rps === undefined ? pacedRatePerSec(id) : Number(rps)
    if (rps !== undefined && (!/^[0-9]+(\.[0-9]+)?$/.test(rps) || !(ratePerSec > 0) || ratePerSec > 10_000))
      problems.push(`${name('RPS')}: must be a number of requests per second in (0, 10000] (got ${JSON.stringify(rps)})`)
    const burstRaw = value(name('BURST'))
    const burst = burstRaw === undefined ? Math.max(kind.burst, Math.ceil(rps === undefined ? 0 : ratePerSec)) : Number(burstRaw)
    if (burstRaw !== undefined && (!/^[0-9]+$/.test(burstRaw) || burst < 1 || burst > 100_000))
      problems.push(`${name('BURST')}: must be an integer in 1..100000 (got ${JSON.stringify(burstRaw)})`)
    const options: Record<string, string> = {}
    for (const [option, spec] of Object.entries(kind.options)) {
      const v = value(name(spec.env)) ?? spec.default
      if (spec.values && !spec.values.includes(v))
        problems.push(`${name(spec.env)}: must be one of ${spec.values.join(', ')} (got ${JSON.stringify(v)})`)
      options[option] = v
    }
    // The host follows the key and the options (Odos' keyed host, 1inch's version) unless the URL is set.
    const url = urlSet ?? kind.hostFor?.({ apiKey, options }) ?? kind.baseUrl
    settings[id] = { baseUrl: url, apiKey, ratePerSec, burst, options }
  }
  return { ids, demo, timeBudgetMs, settings }
}
