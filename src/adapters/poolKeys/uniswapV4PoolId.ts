import { encodeAbiParameters, type Hex, keccak256 } from 'viem'
import type { UniswapV4PoolKey } from './uniswapV4PoolKey.ts'

/**
 * poolId = keccak256(abi.encode(PoolKey)).
 *
 * @example
 * const id = uniswapV4PoolId({ key })
 * // → '0x1d8c55f347727c0fb4f5e1b65cdb93639e0c7102580a7d345e1144cd5a718f54' for Base's WETH/USDC, fee 3000, spacing 60, no hooks
 */
export function uniswapV4PoolId({ key }: { key: UniswapV4PoolKey }): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  )
}
