import { createRequire } from 'node:module'
import { nativeAddonPath } from '../../bindings/nativeSolver.ts'

/** One answer of the solver's StableSwap model: what `exchange` pays and the balances after, or why it refuses. */
export type StableSwapModelAnswer = {
  out?: string
  balances?: string[]
  baseBalances?: string[]
  baseSupply?: string
  /** A cached meta pool's cache after the swap. */
  baseVirtualPrice?: string
  baseCacheUpdated?: string
  error?: string
}

/** The addon's model call, exported by the `reference` builds only (solver-rs/src/ffi/stableswap_lines.rs). */
type StableSwapAddon = { stableswapExchange?: (cases: string) => string }

/**
 * Runs the solver's StableSwap model (solver-rs/src/pools/stableswap) on the cases through the
 * native addon the tests build (`scripts/build.sh --reference`): the model alone, on states the
 * test builds, without a market or a quote. Answers in the cases' order.
 *
 * @example
 * const answers = runStableSwapModel({ cases: [{ pool, i: 0, j: 1, dx: '1000' }] })
 * // → [{ out: '998', balances: ['…', '…'] }]
 */
export function runStableSwapModel({ cases }: { cases: unknown[] }): StableSwapModelAnswer[] {
  const require = createRequire(new URL('../../bindings/nativeSolver.ts', import.meta.url))
  const addon = require(nativeAddonPath()) as StableSwapAddon
  if (!addon.stableswapExchange)
    throw new Error('the native addon has no StableSwap model: build it with the reference (bash scripts/build.sh --reference)')
  return JSON.parse(addon.stableswapExchange(JSON.stringify(cases))) as StableSwapModelAnswer[]
}
