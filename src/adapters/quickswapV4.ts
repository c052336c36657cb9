import { createAlgebraIntegralAdapter } from './createAlgebraIntegralAdapter.ts'

/**
 * QuickSwap V4 (Algebra Integral with the adaptive-fee plugin), executed as `algebra_direct`.
 *
 * @example
 * const leg = quickswapV4.encodeLeg(ref) // { kind: 'algebra_direct', pool }
 */
export const quickswapV4 = createAlgebraIntegralAdapter({ dex: 'QUICKSWAP_V4', encodeLeg: (pool) => ({ kind: 'algebra_direct', pool }) })
