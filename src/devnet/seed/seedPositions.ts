const MIN_TICK = -887272
const MAX_TICK = 887272

/** A concentrated-liquidity position to mint. */
export type SeedPosition = { tickLower: number; tickUpper: number; liquidity: bigint }

export type SeedPositionsParameters = {
  /** Pool price, token1 base units per token0 base unit. */
  price: number
  tickSpacing: number
  /** Capital to spread over the positions, in token1 base units. */
  capitalInToken1: number
  /** Pegged pairs (stables, ETH/LST) get tighter ranges. */
  pegged: boolean
}

/**
 * Four positions around the price: narrow (40 % of the capital), medium (30 %), wide (20 %) and
 * full range (10 %), so trades of growing size cross initialized ticks. Each position's liquidity
 * is the capital share divided by the value of one unit of liquidity over its range (V3 amounts at
 * the current price), so the pool holds about `capitalInToken1` in value.
 *
 * @example
 * const positions = seedPositions({ price: 3.33e8, tickSpacing: 10, capitalInToken1: 1e18, pegged: false })
 * // → [{ tickLower: 196190, tickUpper: 196300, liquidity: 3991115004475445n }, { 195750, 196740, … }, { 193620, 198870, … },
 * //     { tickLower: -887270, tickUpper: 887270, liquidity: 2739983121755n }]: 40/30/20/10 % of the capital, narrow to full range
 */
export function seedPositions({ price, tickSpacing, capitalInToken1, pegged }: SeedPositionsParameters): SeedPosition[] {
  const tick = Math.floor(Math.log(price) / Math.log(1.0001))
  const minUsable = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
  const maxUsable = Math.floor(MAX_TICK / tickSpacing) * tickSpacing
  const widths = pegged ? [0.0005, 0.002, 0.02, Infinity] : [0.005, 0.05, 0.3, Infinity]
  const shares = [0.4, 0.3, 0.2, 0.1]
  const sqrtPrice = Math.sqrt(price)
  return widths.map((width, i) => {
    let tickLower = minUsable
    let tickUpper = maxUsable
    if (width !== Infinity) {
      const halfTicks = Math.max(1, Math.ceil(Math.log(1 + width) / Math.log(1.0001)))
      tickLower = Math.max(minUsable, Math.floor((tick - halfTicks) / tickSpacing) * tickSpacing)
      tickUpper = Math.min(maxUsable, Math.ceil((tick + halfTicks) / tickSpacing) * tickSpacing)
    }
    const sqrtLower = 1.0001 ** (tickLower / 2)
    const sqrtUpper = 1.0001 ** (tickUpper / 2)
    const s = Math.min(Math.max(sqrtPrice, sqrtLower), sqrtUpper)
    // Token amounts per unit of liquidity, valued in token1 at the pool price.
    const valuePerLiquidity = (1 / s - 1 / sqrtUpper) * price + (s - sqrtLower)
    const liquidity = BigInt(Math.floor((capitalInToken1 * shares[i]) / valuePerLiquidity))
    if (liquidity <= 0n || liquidity >= 2n ** 127n) throw new Error(`seed position liquidity ${liquidity} out of range`)
    return { tickLower, tickUpper, liquidity }
  })
}
