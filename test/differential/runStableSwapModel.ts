import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runJsonLines } from '../crosscheck/runJsonLines.ts'

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

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Runs the solver's StableSwap model (solver-rs/src/pools/stableswap, through its example
 * `stableswap_exchange`, built first) on the cases, one JSON line each: the model alone, on
 * states the test builds, without a market or a quote.
 *
 * @example
 * const answers = runStableSwapModel({ cases: [{ pool, i: 0, j: 1, dx: '1000' }] })
 * // → [{ out: '998', balances: ['…', '…'] }]
 */
export function runStableSwapModel({ cases }: { cases: unknown[] }): StableSwapModelAnswer[] {
  // The profile and features of the Rust tests' build (scripts/test-rust.sh), which compiles the
  // examples too: after it this is a no-op. In release (the native addon's profile, other features)
  // it compiled the whole solver and its dev-dependencies once more inside the suite: about 150
  // core-seconds of a CI run.
  execFileSync(
    'cargo',
    ['build', '--profile', 'release-test', '-p', 'solver-rs', '--features', 'reference', '--example', 'stableswap_exchange'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  return runJsonLines<StableSwapModelAnswer>({ command: `${ROOT}target/release-test/examples/stableswap_exchange`, cases })
}
