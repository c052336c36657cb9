import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter } from './PoolAdapter.ts'
import { adapterRegistry } from './registry.ts'

/**
 * The registry's adapters, by kind (absent kinds left out).
 *
 * @example
 * const adapters = presentAdapters() // Map { 'UNIV2' => uniswapV2, ... }
 */
export function presentAdapters(): Map<DexId, PoolAdapter> {
  const adapters = new Map<DexId, PoolAdapter>()
  for (const [dex, entry] of Object.entries(adapterRegistry) as [DexId, (typeof adapterRegistry)[DexId]][]) {
    if (entry.status === 'present') adapters.set(dex, entry.adapter)
  }
  return adapters
}
