import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

export type RunPythonReferenceParameters = {
  /** The reference script: reads one JSON line per case on stdin, writes one JSON line per case. */
  script: string
  /** The cases, each serialised to one JSON line. */
  cases: readonly unknown[]
  /** The interpreter; default `python3` (a virtual environment's for references that import PyPI packages). */
  python?: string
}

/**
 * Runs a cross-check's Python reference on its cases in one process and returns its answers, one
 * per case, in order (fails the test when python3 fails or answers a different number of lines).
 *
 * @example
 * const answers = runPythonReference<{ out?: string }>({ script: PYTHON, cases })
 */
export function runPythonReference<T>({ script, cases, python = 'python3' }: RunPythonReferenceParameters): T[] {
  const input = cases.map((c) => JSON.stringify(c)).join('\n')
  const run = spawnSync(python, [script], { input, encoding: 'utf8', maxBuffer: 1 << 28 })
  assert.equal(run.status, 0, `${python} ${script} failed (is it installed?): ${run.error ?? run.stderr}`)
  const answers = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T)
  assert.equal(answers.length, cases.length, `${python} ${script} answered ${answers.length} lines for ${cases.length} cases`)
  return answers
}
