const Q192 = 1n << 192n

export type MarketCapOfParameters = {
  totalSupply: bigint
  /** The pool's sqrt(token1/token0) as a Q64.96. */
  sqrtPriceX96: bigint
  tokenIsToken0: boolean
}

/**
 * A token's fully diluted market cap in the paired asset's base units: total supply × price,
 * rounded down. The pool prices token1 in token0 (sqrtPriceX96² / 2^192), so a token that is
 * token1 is priced by the inverse. Exact integer arithmetic: no precision is lost before the
 * final division.
 *
 * @example
 * marketCapOf({ totalSupply: 10n ** 27n, sqrtPriceX96: 2n ** 96n, tokenIsToken0: true }) // 10n ** 27n (price 1)
 */
export function marketCapOf({ totalSupply, sqrtPriceX96, tokenIsToken0 }: MarketCapOfParameters): bigint {
  if (sqrtPriceX96 <= 0n) return 0n
  const priceNumerator = sqrtPriceX96 * sqrtPriceX96
  return tokenIsToken0 ? (totalSupply * priceNumerator) / Q192 : (totalSupply * Q192) / priceNumerator
}
