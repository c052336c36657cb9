import type { SerializedError } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'

type TestRunCounts = { passed: number; failed: number; skipped: number }

/**
 * A vitest reporter that ends the run with the costliest test files (CPU seconds, where the setup
 * file `recordFileCpu.ts` recorded them: the CI run is CPU-bound, so these say where its time goes)
 * and the slowest (wall seconds, import and hooks included), then one plain line,
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
      const costliest = [...testModules]
        .map((m) => ({ file: m.relativeModuleId, cpuSeconds: (m.meta() as { cpuSeconds?: number }).cpuSeconds }))
        .filter((m): m is { file: string; cpuSeconds: number } => m.cpuSeconds !== undefined)
      if (costliest.length > 0) {
        costliest.sort((a, b) => b.cpuSeconds - a.cpuSeconds)
        const total = costliest.reduce((sum, m) => sum + m.cpuSeconds, 0)
        write(`vitest: costliest files (CPU s, the file's process and its children; all files ${total.toFixed(0)})`)
        for (const { file, cpuSeconds } of costliest.slice(0, SLOWEST_FILES)) write(`${cpuSeconds.toFixed(1).padStart(8)}  ${file}`)
      }
      write(`vitest: slowest files (s)`)
      for (const { file, seconds } of slowest.slice(0, SLOWEST_FILES)) write(`${seconds.toFixed(1).padStart(8)}  ${file}`)
      const { passed, failed, skipped } = countTestRun(testModules, unhandledErrors)
      write(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`)
    },
  }
}

/** How many of the costliest and of the slowest files the summary lists. */
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
