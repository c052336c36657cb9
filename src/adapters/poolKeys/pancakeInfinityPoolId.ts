import { encodeAbiParameters, type Hex, keccak256 } from 'viem'
import type { PancakeInfinityPoolKey } from './pancakeInfinityPoolKey.ts'

/** abi.encode(PoolKey): (currency0, currency1, hooks, poolManager, fee, parameters), six words. */
export const pancakeInfinityPoolKeyAbi = [
  {
    type: 'tuple',
    components: [
      { name: 'currency0', type: 'address' },
      { name: 'currency1', type: 'address' },
      { name: 'hooks', type: 'address' },
      { name: 'poolManager', type: 'address' },
      { name: 'fee', type: 'uint24' },
      { name: 'parameters', type: 'bytes32' },
    ],
  },
] as const

/**
 * poolId = keccak256(abi.encode(PoolKey)), as Infinity's PoolIdLibrary hashes the key's six words.
 *
 * @example
 * const id = pancakeInfinityPoolId({ key })
 * // → the pool's bytes32 id (hex): keccak256 of the key's six words, as the CL pool manager names it
 */
export function pancakeInfinityPoolId({ key }: { key: PancakeInfinityPoolKey }): Hex {
  return keccak256(encodeAbiParameters(pancakeInfinityPoolKeyAbi, [key]))
}
