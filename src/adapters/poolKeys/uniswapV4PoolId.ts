import { encodeAbiParameters, type Hex, keccak256 } from 'viem'
import type { UniswapV4PoolKey } from './uniswapV4PoolKey.ts'

/** abi.encode(PoolKey): (currency0, currency1, fee, tickSpacing, hooks), five words; the `univ4` leg's `inputs[0]` too. */
export const uniswapV4PoolKeyAbi = [
  {
    type: 'tuple',
    components: [
      { name: 'currency0', type: 'address' },
      { name: 'currency1', type: 'address' },
      { name: 'fee', type: 'uint24' },
      { name: 'tickSpacing', type: 'int24' },
      { name: 'hooks', type: 'address' },
    ],
  },
] as const

/**
 * poolId = keccak256(abi.encode(PoolKey)).
 *
 * @example
 * const id = uniswapV4PoolId({ key })
 * // → '0x1d8c55f347727c0fb4f5e1b65cdb93639e0c7102580a7d345e1144cd5a718f54' for Base's WETH/USDC, fee 3000, spacing 60, no hooks
 */
export function uniswapV4PoolId({ key }: { key: UniswapV4PoolKey }): Hex {
  return keccak256(encodeAbiParameters(uniswapV4PoolKeyAbi, [key]))
}
