/**
 * Basis points as the exact decimal percent the APIs that take a percent expect (1inch `fee`,
 * OpenOcean `referrerFee`): no float rounding, no trailing zeros.
 *
 * @example
 * bpsAsPercent(25) // '0.25'
 * bpsAsPercent(300) // '3'
 */
export function bpsAsPercent(bps: number): string {
  if (!Number.isSafeInteger(bps) || bps < 0) throw new RangeError(`bpsAsPercent: ${bps} is not a whole number of bps`)
  const cents = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return cents ? `${Math.floor(bps / 100)}.${cents}` : String(bps / 100)
}
