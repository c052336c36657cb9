import type { SerializedError } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'

type TestRunCounts = { passed: number; failed: number; skipped: number }

/**
 * A vitest reporter that ends the run with the slowest test files (wall seconds, import and hooks
 * included, so the CI log shows where its time goes), then one plain line,
 * `vitest: N passed, N failed, N skipped`,
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
      const slowest = [...testModules].map((m) => ({ file: m.relativeModuleId, seconds: moduleSeconds(m) }))
      slowest.sort((a, b) => b.seconds - a.seconds)
      write(`vitest: slowest files (s)`)
      for (const { file, seconds } of slowest.slice(0, SLOWEST_FILES)) write(`${seconds.toFixed(1).padStart(8)}  ${file}`)
      const { passed, failed, skipped } = countTestRun(testModules, unhandledErrors)
      write(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`)
    },
  }
}

/** How many of the slowest files the summary lists. */
const SLOWEST_FILES = 15

/** A file's wall time: its environment, harness, import, setup file, then its tests and hooks. */
function moduleSeconds(module: TestModule): number {
  const d = module.diagnostic()
  return (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000
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
