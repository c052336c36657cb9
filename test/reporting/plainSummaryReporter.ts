import type { SerializedError } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'

type TestRunCounts = { passed: number; failed: number; skipped: number }

/**
 * A vitest reporter that ends the run with one plain line, `vitest: N passed, N failed, N skipped`,
 * the closing line that tools reading a test log without knowing vitest understand (CI reads the
 * last runner's totals from such a line). `failed` also counts every error outside a test (a failed
 * `beforeAll`, a file that did not load, an unhandled rejection), so a failed run never reads
 * "0 failed"; tests that did not run for such an error count as skipped.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { reporters: ['verbose', plainSummaryReporter()] } })
 */
export function plainSummaryReporter(write: (line: string) => void = (line) => console.log(line)): Reporter {
  return {
    onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
      const { passed, failed, skipped } = countTestRun(testModules, unhandledErrors)
      write(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`)
    },
  }
}

/** The totals of a finished run, errors outside tests counted as failures. */
function countTestRun(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): TestRunCounts {
  const counts: TestRunCounts = { passed: 0, failed: unhandledErrors.length, skipped: 0 }
  for (const module of testModules) {
    counts.failed += module.errors().length
    for (const suite of module.children.allSuites()) counts.failed += suite.errors().length
    for (const test of module.children.allTests()) {
      const state = test.result().state
      if (state === 'passed') counts.passed++
      else if (state === 'failed') counts.failed++
      else counts.skipped++
    }
  }
  return counts
}
