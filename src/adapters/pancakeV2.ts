import { createConstantProductAdapter } from './createConstantProductAdapter.ts'

/**
 * PancakeSwap V2 pairs (the multichain build on Base): Uniswap V2's pair ABI and events with a
 * 25 bps fee; executed as `v2_direct` with `feeBps: 25`.
 *
 * @example
 * const leg = pancakeV2.encodeLeg(ref) // { kind: 'v2_direct', pool, feeBps: 25 }
 */
export const pancakeV2 = createConstantProductAdapter({ dex: 'PANCAKE_V2', feeBps: 25 })
