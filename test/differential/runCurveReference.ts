import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** One answer of `test/crosscheck/curve_stableswap.py` (the fields its input's template has). */
export type CurveReferenceAnswer = {
  rates?: string[]
  exchange: { out?: string; error?: string }
  get_dy?: { out?: string; error?: string }
  curvesim?: string
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
  const python = spawnSync(PYTHON, [REFERENCE], {
    input: inputs.map((i) => JSON.stringify(i)).join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  assert.equal(python.status, 0, `${PYTHON} ${REFERENCE} failed (bash scripts/install-vyper.sh): ${python.error ?? python.stderr}`)
  const answers = python.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CurveReferenceAnswer)
  assert.equal(answers.length, inputs.length)
  return answers
}
