import { defineConfig } from 'vitest/config'
import { plainSummaryReporter } from './test/reporting/plainSummaryReporter.ts'
import { SeededDevnetFirstSequencer } from './test/sequencing/seededDevnetFirstSequencer.ts'

/** Ten minutes: a default far above any test's need, so only a hang trips it (see `testTimeout`). */
const GENEROUS_TIMEOUT_MS = 600_000

// The TypeScript suite (`npm test` runs it through scripts/test.sh; `npx vitest run <files>` alone).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bindings/**/*.test.ts', 'bench/**/*.test.ts'],
    // Child processes, not worker threads: tests load the napi addon, start WASM workers of their
    // own, spawn anvil and src/server.ts, and install exit and signal handlers.
    pool: 'forks',
    // One file at a time: anvil-backed files each start their own chain, the machine has 2 cores,
    // and several files measure what they print.
    fileParallelism: false,
    maxWorkers: 1,
    // The seeded devnet's test first: its seed from scratch is the saved state the other files load.
    sequence: { sequencer: SeededDevnetFirstSequencer },
    watch: false,
    // Node's runner had no default timeout; tests that know their length still set their own.
    testTimeout: GENEROUS_TIMEOUT_MS,
    hookTimeout: GENEROUS_TIMEOUT_MS,
    teardownTimeout: 60_000,
    // Every test's name, and what tests print (measured results the docs quote) under its name; then
    // one plain closing line of totals for tools that read a log without knowing vitest.
    reporters: ['verbose', plainSummaryReporter()],
    silent: false,
  },
})
