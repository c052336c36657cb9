import type { DiscoveryProgress } from './discoverDeployments.ts'

export type CreateDiscoveryProgressReporterParameters = {
  /** A terminal gets one progress line rewritten in place; anything else gets a log line every `intervalMs`. */
  stream: { isTTY?: boolean; write: (text: string) => unknown }
  /** Structured logging for non-terminals (the service's logger). */
  log: (fields: Record<string, unknown>, message: string) => void
  intervalMs?: number
  now?: () => number
}

/**
 * Shows discovery's progress: on a terminal, a line rewritten in place (`discovery: 42.0 % of
 * 2,700,000 blocks, UNIV3, 3,456 pools, ETA 1 h 02 min`), ended when the scan ends; otherwise a
 * structured log line at most every `intervalMs` (default 5 s) and one at the end, with blocks
 * scanned, blocks in all, pools found, ranges fetched, the range size and the ETA.
 *
 * @example
 * const report = createDiscoveryProgressReporter({ stream: process.stderr, log: (fields, message) => logger.info(fields, message) })
 * // on a TTY: `\rdiscovery: 42.0 % of 2,700,000 blocks, UNIV3, 3,456 pools`; otherwise a log line every 5 s
 * createMarketState({ ..., onProgress: report })
 */
export function createDiscoveryProgressReporter({
  stream,
  log,
  intervalMs = 5000,
  now = Date.now,
}: CreateDiscoveryProgressReporterParameters): (progress: DiscoveryProgress) => void {
  let lastLogAt = -Infinity
  return (p) => {
    const done = p.allScannedBlocks >= p.allTotalBlocks
    const percent = p.allTotalBlocks === 0n ? 100 : Number((p.allScannedBlocks * 1000n) / p.allTotalBlocks) / 10
    const etaSeconds = done || p.etaMs === undefined ? undefined : Math.round(p.etaMs / 1000)
    if (stream.isTTY) {
      stream.write(
        `\rdiscovery: ${percent.toFixed(1)} % of ${p.allTotalBlocks.toLocaleString('en-US')} blocks, ${p.dex}, ${p.pools.toLocaleString('en-US')} pools${etaSeconds === undefined ? '' : `, ETA ${formatDuration(etaSeconds)}`}${done ? '\n' : ''}`,
      )
      return
    }
    if (!done && now() - lastLogAt < intervalMs) return
    lastLogAt = now()
    log(
      {
        component: 'discovery',
        dex: p.dex,
        scannedBlocks: p.allScannedBlocks.toString(),
        totalBlocks: p.allTotalBlocks.toString(),
        percent,
        pools: p.pools,
        ranges: p.ranges,
        rangeBlocks: p.rangeBlocks.toString(),
        ...(etaSeconds === undefined ? {} : { etaSeconds }),
      },
      done ? 'discovery done' : 'discovery progress',
    )
  }
}

/** 3725 → "1 h 02 min", 125 → "2 min 05 s", 42 → "42 s". */
const formatDuration = (seconds: number) => {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`
  return m > 0 ? `${m} min ${String(s).padStart(2, '0')} s` : `${s} s`
}
