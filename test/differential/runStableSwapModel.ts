import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runJsonLines } from '../crosscheck/runJsonLines.ts'

/** One answer of the solver's StableSwap model: what `exchange` pays and the balances after, or why it refuses. */
export type StableSwapModelAnswer = { out?: string; balances?: string[]; baseBalances?: string[]; baseSupply?: string; error?: string }

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
  // With the features `cargo test --features reference` built the examples with (scripts/test.sh), so
  // after it this build is a no-op; without them it recompiled the solver in release (30 s in CI).
  execFileSync('cargo', ['build', '--release', '-p', 'solver-rs', '--features', 'reference', '--example', 'stableswap_exchange'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return runJsonLines<StableSwapModelAnswer>({ command: `${ROOT}target/release/examples/stableswap_exchange`, cases })
}
