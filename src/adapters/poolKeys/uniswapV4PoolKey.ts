import type { Address } from 'viem'

/** A V4 PoolKey (currency0 < currency1). */
export type UniswapV4PoolKey = {
  currency0: Address
  currency1: Address
  /** lp fee in pips (0x800000 flags a dynamic fee). */
  fee: number
  tickSpacing: number
  hooks: Address
}

export type UniswapV4PoolKeyParameters = {
  tokenA: Address
  tokenB: Address
  fee: number
  tickSpacing: number
  hooks?: Address
}

/**
 * Builds a PoolKey with the currencies sorted (hookless by default).
 *
 * @example
 * const key = uniswapV4PoolKey({ tokenA: usdc, tokenB: weth, fee: 3000, tickSpacing: 60 })
 * // → { currency0: weth (0x4200…0006 sorts first), currency1: usdc, fee: 3000, tickSpacing: 60, hooks: the zero address }
 */
export function uniswapV4PoolKey({
  tokenA,
  tokenB,
  fee,
  tickSpacing,
  hooks = '0x0000000000000000000000000000000000000000',
}: UniswapV4PoolKeyParameters): UniswapV4PoolKey {
  const [currency0, currency1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { currency0, currency1, fee, tickSpacing, hooks }
}
