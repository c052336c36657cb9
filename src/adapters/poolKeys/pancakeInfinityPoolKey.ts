import { type Address, type Hex, numberToHex, zeroAddress } from 'viem'

/** A PancakeSwap Infinity CL PoolKey (currency0 < currency1; `parameters` packs the tick spacing). */
export type PancakeInfinityPoolKey = {
  currency0: Address
  currency1: Address
  hooks: Address
  poolManager: Address
  /** LP fee in pips (0x800000 flags a dynamic fee). */
  fee: number
  /** bytes32: hooks registration bitmap in bits 0–15, tick spacing in bits 16–39, the rest zero. */
  parameters: Hex
}

export type PancakeInfinityPoolKeyParameters = {
  tokenA: Address
  tokenB: Address
  poolManager: Address
  fee: number
  tickSpacing: number
  hooks?: Address
}

/**
 * Builds a hookless CL PoolKey with the currencies sorted and the spacing packed into `parameters`.
 *
 * @example
 * const key = pancakeInfinityPoolKey({ tokenA, tokenB, poolManager, fee: 2500, tickSpacing: 50 })
 * // key.parameters === '0x…0000320000' (50 << 16)
 */
export function pancakeInfinityPoolKey({
  tokenA,
  tokenB,
  poolManager,
  fee,
  tickSpacing,
  hooks = zeroAddress,
}: PancakeInfinityPoolKeyParameters): PancakeInfinityPoolKey {
  const [currency0, currency1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { currency0, currency1, hooks, poolManager, fee, parameters: numberToHex(BigInt(tickSpacing) << 16n, { size: 32 }) }
}

/**
 * The tick spacing a key's `parameters` hold: bits 16–39, as a signed 24-bit number.
 *
 * @example
 * pancakeInfinityTickSpacing({ parameters: '0x…0000320000' }) // 50
 */
export function pancakeInfinityTickSpacing({ parameters }: { parameters: Hex }): number {
  return Number(BigInt.asIntN(24, (BigInt(parameters) >> 16n) & 0xffffffn))
}
