import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

export type RunJsonLinesParameters = {
  /** The program: reads one JSON line per case on stdin, writes one JSON line per case. */
  command: string
  args?: readonly string[]
  /** The cases, each serialised to one JSON line. */
  cases: readonly unknown[]
}

/**
 * Runs a program on its cases in one process and returns its answers, one per case, in order
 * (fails the test when the program fails or answers a different number of lines).
 *
 * @example
 * const answers = runJsonLines<{ out?: string }>({ command: 'python3', args: [script], cases })
 * // → [{ out: '998' }, …]
 */
export function runJsonLines<T>({ command, args = [], cases }: RunJsonLinesParameters): T[] {
  const input = cases.map((c) => JSON.stringify(c)).join('\n')
  const run = spawnSync(command, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 })
  const name = [command, ...args].join(' ')
  assert.equal(run.status, 0, `${name} failed: ${run.error ?? run.stderr}`)
  const answers = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T)
  assert.equal(answers.length, cases.length, `${name} answered ${answers.length} lines for ${cases.length} cases`)
  return answers
}
