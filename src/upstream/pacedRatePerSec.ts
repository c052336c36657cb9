import { PACED_SHARE, upstreamRegistry } from './registry.ts'
import type { UpstreamId } from './UpstreamAdapter.ts'

/**
 * The rate we pace an upstream at by default: PACED_SHARE of its published rate (requests per
 * second, to a thousandth), so its own count of our requests never tips over its limit.
 *
 * @example
 * pacedRatePerSec('0x')    // 4   (published 5)
 * pacedRatePerSec('1inch') // 0.8 (published 1)
 */
export function pacedRatePerSec(id: UpstreamId): number {
  return Math.round(upstreamRegistry[id].ratePerSec * PACED_SHARE * 1000) / 1000
}
