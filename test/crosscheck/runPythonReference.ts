import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

export type RunPythonReferenceParameters = {
  /** The reference script: reads one JSON line per case on stdin, writes one JSON line per case. */
  script: string
  /** The cases, each serialised to one JSON line. */
  cases: readonly unknown[]
}

/**
 * Runs a cross-check's Python reference on its cases in one process and returns its answers, one
 * per case, in order (fails the test when python3 fails or answers a different number of lines).
 *
 * @example
 * const answers = runPythonReference<{ out?: string }>({ script: PYTHON, cases })
 */
export function runPythonReference<T>({ script, cases }: RunPythonReferenceParameters): T[] {
  const input = cases.map((c) => JSON.stringify(c)).join('\n')
  const python = spawnSync('python3', [script], { input, encoding: 'utf8', maxBuffer: 1 << 28 })
  assert.equal(python.status, 0, `python3 ${script} failed (is python3 installed?): ${python.error ?? python.stderr}`)
  const answers = python.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T)
  assert.equal(answers.length, cases.length, `python3 ${script} answered ${answers.length} lines for ${cases.length} cases`)
  return answers
}
