import { createUniswapV3FamilyAdapter } from './createUniswapV3FamilyAdapter.ts'

/**
 * PancakeSwap V3: V3 math, but `slot0.feeProtocol` is uint32 and `Swap` carries protocol fees, so
 * both ABIs differ from Uniswap's; executed as `pancake_v3_direct` (pancakeV3SwapCallback).
 *
 * @example
 * const leg = pancakeV3.encodeLeg(ref) // { kind: 'pancake_v3_direct', pool }
 */
export const pancakeV3 = createUniswapV3FamilyAdapter({ dex: 'PANCAKE_V3', flavour: 'pancake', legKind: 'pancake_v3_direct' })
