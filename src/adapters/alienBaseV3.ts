import { createUniswapV3FamilyAdapter } from './createUniswapV3FamilyAdapter.ts'

/**
 * AlienBase V3: Uniswap V3 pool bytecode (same init hash) behind its own factory, with extra fee
 * tiers; same reads and events as UNIV3, executed as `v3_direct`.
 *
 * @example
 * const leg = alienBaseV3.encodeLeg(ref) // { kind: 'v3_direct', pool }
 */
export const alienBaseV3 = createUniswapV3FamilyAdapter({ dex: 'ALIEN_BASE_V3', flavour: 'uniswap', legKind: 'v3_direct' })
