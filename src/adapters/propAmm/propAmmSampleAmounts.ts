/** Reserve fractions sampled (parts per million of the venue's reserve of the input token). */
export const RESERVE_FRACTIONS_PPM = [1_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 350_000, 500_000, 750_000, 990_000] as const
/**
 * Log-spaced sizes: 10^k whole tokens for k in this range (10^-4 .. 10^4). Narrower than the
 * aggregators' 10^-7 .. 10^7: 40 samples a venue keep ten venues' samples (about 10 KB of calldata
 * each) inside one of the batched reader's 128 KB `aggregate3` calls; the reserve fractions cover
 * the large sizes.
 */
const LOG_MIN = -4
const LOG_MAX = 4

export type PropAmmSampleAmountsParameters = {
  /** The input token's decimals. */
  decimals: number
  /** The venue's reserve of the input token (raw). */
  reserveIn: bigint
  /** Largest input the venue accepts (FELTIR's remaining cumulative limit); undefined: none. */
  maxIn?: bigint
}

/**
 * The input amounts a prop AMM is sampled at in one direction: log-spaced sizes from 10^-4 to
 * 10^4 whole tokens plus fractions of the venue's reserve of the input token (0.1 % to 99 %), the
 * way KyberSwap's and Velora's adapters sample them (research/dex-kinds.md §2.11); strictly
 * ascending, above zero, none above `maxIn`.
 *
 * @example
 * propAmmSampleAmounts({ decimals: 6, reserveIn: 1_000_000_000n })
 * // → [100n, 1000n, 10000n, 100000n, 1000000n, 5000000n, 10000000n, ...] (raw units, ascending)
 */
export function propAmmSampleAmounts({ decimals, reserveIn, maxIn }: PropAmmSampleAmountsParameters): bigint[] {
  const amounts = new Set<bigint>()
  for (let k = LOG_MIN; k <= LOG_MAX; k++) {
    const exponent = decimals + k
    if (exponent >= 0) amounts.add(10n ** BigInt(exponent))
  }
  for (const ppm of RESERVE_FRACTIONS_PPM) amounts.add((reserveIn * BigInt(ppm)) / 1_000_000n)
  return [...amounts].filter((a) => a > 0n && (maxIn === undefined || a <= maxIn)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}
