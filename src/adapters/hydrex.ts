import { createAlgebraIntegralAdapter } from './createAlgebraIntegralAdapter.ts'

/**
 * Hydrex (Algebra Integral), executed as `hydrex`: the pool is the leg's `poolId`, the leg data
 * carries no pool (docs/route-legs.md); the optional deadline is the service's to set.
 *
 * @example
 * const leg = hydrex.encodeLeg(ref) // { kind: 'hydrex' }
 */
export const hydrex = createAlgebraIntegralAdapter({ dex: 'HYDREX', encodeLeg: () => ({ kind: 'hydrex' }) })
