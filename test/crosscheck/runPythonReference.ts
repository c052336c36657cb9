import { runJsonLines } from './runJsonLines.ts'

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
  return runJsonLines<T>({ command: python, args: [script], cases })
}
