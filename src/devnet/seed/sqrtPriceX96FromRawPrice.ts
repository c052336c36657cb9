export type SqrtPriceX96FromRawPriceParameters = { price: number }

/**
 * sqrt(price) · 2^96 as the pools' `initialize` wants it. The float has 53 bits of precision,
 * plenty for a seeded starting price.
 *
 * @example
 * sqrtPriceX96FromRawPrice({ price: 1 }) // 2n ** 96n
 */
export function sqrtPriceX96FromRawPrice({ price }: SqrtPriceX96FromRawPriceParameters): bigint {
  if (!(price > 0) || !Number.isFinite(price)) throw new Error(`invalid raw price ${price}`)
  const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(price) * 2 ** 96))
  if (sqrtPriceX96 <= 4295128739n || sqrtPriceX96 >= 1461446703485210103287273052203988822378723970342n) {
    throw new Error(`raw price ${price} is outside the V3 price range`)
  }
  return sqrtPriceX96
}
