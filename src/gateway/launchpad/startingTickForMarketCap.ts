/** `LaunchFactory.TICK_SPACING`: starting ticks are multiples of it. */
export const LAUNCH_TICK_SPACING = 200
/** `LaunchFactory.TOKEN_SUPPLY`: every launched token's supply, in base units (1e9 tokens of 18 decimals). */
export const LAUNCH_TOKEN_SUPPLY = 10n ** 27n

export type StartingTickForMarketCapParameters = {
  /** Wanted fully diluted market cap, in the paired asset's base units (e.g. wei of WETH). */
  marketCapRaw: bigint
  /** Token supply in base units; default the factory's. */
  supplyRaw?: bigint
}

/**
 * The starting tick for a wanted market cap: log base 1.0001 of the price (paired base units per
 * token base unit), rounded down to a multiple of the tick spacing, so the launch never starts
 * above the cap asked for. Floating point picks a tick only; nothing paid depends on it.
 *
 * @example
 * startingTickForMarketCap({ marketCapRaw: 10n * 10n ** 18n }) // -184400: at most 10 WETH for 1e9 tokens
 */
export function startingTickForMarketCap({ marketCapRaw, supplyRaw = LAUNCH_TOKEN_SUPPLY }: StartingTickForMarketCapParameters): number {
  if (marketCapRaw <= 0n || supplyRaw <= 0n) throw new RangeError('market cap and supply must be positive')
  // ln(cap / supply) from the two logarithms: the amounts themselves exceed a double's range.
  const lnPrice = lnBig(marketCapRaw) - lnBig(supplyRaw)
  const tick = Math.floor(lnPrice / Math.log(1.0001))
  return Math.floor(tick / LAUNCH_TICK_SPACING) * LAUNCH_TICK_SPACING
}

/** Natural log of a positive bigint, to double precision. */
function lnBig(value: bigint): number {
  const digits = value.toString()
  const head = Number(`0.${digits.slice(0, 17)}`)
  return Math.log(head) + digits.length * Math.LN10
}
