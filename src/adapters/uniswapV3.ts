import { createUniswapV3FamilyAdapter } from './createUniswapV3FamilyAdapter.ts'

/**
 * Uniswap V3 pools, executed as `v3_direct`.
 *
 * @example
 * const leg = uniswapV3.encodeLeg(ref) // { kind: 'v3_direct', pool }
 */
export const uniswapV3 = createUniswapV3FamilyAdapter({ dex: 'UNIV3', flavour: 'uniswap', legKind: 'v3_direct' })
