import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runJsonLines } from '../crosscheck/runJsonLines.ts'

/** One answer of `test/crosscheck/curve_stableswap.py` (the fields its input's template has). */
export type CurveReferenceAnswer = {
  rates?: string[]
  exchange: { out?: string; error?: string }
  get_dy?: { out?: string; error?: string }
  curvesim?: string
  /** A cached meta pool's cache after a paid swap. */
  cache?: { baseVirtualPrice: string; baseCacheUpdated: string }
}

const PYTHON = fileURLToPath(new URL('../../build/vyper/venv/bin/python', import.meta.url))
const REFERENCE = fileURLToPath(new URL('../crosscheck/curve_stableswap.py', import.meta.url))

/**
 * Runs the Curve StableSwap reference (Python with exact integers, and curvesim) on the cases, one
 * JSON line each, on the Python that `scripts/install-vyper.sh` installs (with curvesim; run first).
 *
 * @example
 * const answers = runCurveReference({ inputs: cases.map((c) => c.reference) })
 */
export function runCurveReference({ inputs }: { inputs: unknown[] }): CurveReferenceAnswer[] {
  // Idempotent: returns at once when what it installs is there.
  execFileSync('bash', [fileURLToPath(new URL('../../scripts/install-vyper.sh', import.meta.url))], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return runJsonLines<CurveReferenceAnswer>({ command: PYTHON, args: [REFERENCE], cases: inputs })
}
