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
 * 2,700,000 blocks, UNIV3, 3,456 pools`), ended when the scan ends; otherwise a structured log line
 * at most every `intervalMs` (default 5 s) and one at the end, with blocks scanned, blocks in all
 * and pools found.
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
    if (stream.isTTY) {
      stream.write(
        `\rdiscovery: ${percent.toFixed(1)} % of ${p.allTotalBlocks.toLocaleString('en-US')} blocks, ${p.dex}, ${p.pools.toLocaleString('en-US')} pools${done ? '\n' : ''}`,
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
      },
      done ? 'discovery done' : 'discovery progress',
    )
  }
}
