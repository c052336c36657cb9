import { getAddress } from 'viem'
import type { LegData } from './PoolAdapter.ts'
import type { PancakeInfinityPoolKey } from './poolKeys/pancakeInfinityPoolKey.ts'

/**
 * The `pancake_infinity_cl` LegData of a pool: its whole key, addresses checksummed (the router
 * recomputes the pool id from it, docs/route-legs.md).
 *
 * @example
 * pancakeInfinityClLegData({ currency0: weth, currency1: usdc, hooks: zeroAddress, poolManager, fee: 500, parameters: '0x…000a0000' })
 * // → { kind: 'pancake_infinity_cl', poolKey: { currency0: weth, currency1: usdc, hooks: '0x0000000000000000000000000000000000000000', poolManager, fee: 500, parameters: '0x…000a0000' } }
 */
export function pancakeInfinityClLegData(key: PancakeInfinityPoolKey): Extract<LegData, { kind: 'pancake_infinity_cl' }> {
  return {
    kind: 'pancake_infinity_cl',
    poolKey: {
      currency0: getAddress(key.currency0),
      currency1: getAddress(key.currency1),
      hooks: getAddress(key.hooks),
      poolManager: getAddress(key.poolManager),
      fee: key.fee,
      parameters: key.parameters,
    },
  }
}
