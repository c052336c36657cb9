import { configDefaults, defineConfig } from 'vitest/config'
import { plainSummaryReporter } from './test/reporting/plainSummaryReporter.ts'

/** Ten minutes: a default far above any test's need, so only a hang trips it (see `testTimeout`). */
const GENEROUS_TIMEOUT_MS = 600_000

/** Every test file of the suite. */
const TEST_FILES = ['src/**/*.test.ts', 'test/**/*.test.ts', 'bindings/**/*.test.ts', 'bench/**/*.test.ts']

/**
 * Files run in processes that carry on from file to file (`isolate: false`): the unit tests beside
 * the code, the differential, cross-check and router tests (each its own anvil, contracts and
 * cases), and the HTTP and gateway tests (each its own service, ports and databases; a spawned
 * `src/server.ts` has its worker's own gateway database, test/fixtures/spawnServer.ts). A fresh
 * process per file spends a second or more of CPU starting and importing (viem, Fastify, the
 * solver) before its first test, more than most unit files' tests take. One process per file
 * against shared (core-seconds, 2026-11-28, a shared machine at a load of 3 to 7): the 129 files of
 * src/ 236 and 88; the 32 of test/crosscheck, test/differential and test/router 582 and 498; the 34
 * of test/gateway and test/http (those that do not run alone) 635 and 553. Every file still closes
 * what it opens; what carries over is the module cache and what modules keep in it.
 */
const SHARED_PROCESS = [
  'src/**/*.test.ts',
  'test/crosscheck/**/*.test.ts',
  'test/differential/**/*.test.ts',
  'test/router/**/*.test.ts',
  'test/gateway/**/*.test.ts',
  'test/http/**/*.test.ts',
  // The solver-level files (parity, robustness, route quality, the prop AMMs' stand-ins), the
  // bindings' and the benchmarks' own tests, the fixtures' and the reporter's.
  'test/*.test.ts',
  'test/propAmm/**/*.test.ts',
  'test/fixtures/**/*.test.ts',
  'test/reporting/**/*.test.ts',
  'bindings/**/*.test.ts',
  'bench/**/*.test.ts',
]

/**
 * Of those, files that need a process of their own: what they check is a first load or a deadline
 * that another file's leftovers in the process would move.
 */
const FRESH_PROCESS = [
  // The Vyper artifact's first load must leave the event loop turning; a loaded one is cached.
  'src/devnet/runInstallScript.test.ts',
  // Upstream answers raced against a 470 ms deadline.
  'src/upstream/splitAcrossSources.test.ts',
]

/**
 * The test that seeds the devnet from scratch into the shared saved state (`var/`,
 * `src/devnet/savedDevnetState.ts`): run first and alone, so a fresh checkout seeds once for it and
 * every later file loads the state, rather than seeding once more in each file that starts first.
 */
const SEEDS_THE_SAVED_STATE = 'src/devnet/startSeededDevnet.test.ts'

/**
 * Files run one at a time, after the rest: those whose outcome depends on the machine's pace (small
 * budgets that must converge, a reorg raced against a 3 s budget, stand-in upstreams answering
 * within their timeouts, the event loop turning while heavy solves run). Their bars allow a busy
 * machine, not another file's work beside them: run two at a time on a machine at a load of 12 to
 * 16, three of the files then alone failed. A spawned `src/server.ts` has its worker's own gateway
 * database (test/fixtures/spawnServer.ts), so the files that spawn one run two at a time.
 */
const ONE_AT_A_TIME = [
  'bindings/wasmSolver.test.ts',
  'test/http/quoteBudget.test.ts',
  'test/http/upstreams.test.ts',
  'test/http/upstreamsDemo.test.ts',
  'test/eventLoop.test.ts',
]

/** How many files run at once in the middle group: the machines have 2 cores. */
const FILES_AT_ONCE = 2

// The TypeScript suite (`npm test` runs it through scripts/test.sh; `npx vitest run <files>` alone).
// Three groups run in turn (`groupOrder`): the seed, then every other file two at a time (each file
// mostly waits on anvil, the service's timers or a child process, so two share the 2 cores well;
// every chain, port, database and temporary directory a file uses is its own; the unit tests beside
// the code and the chain-level, HTTP and gateway tests in processes that carry on from file to
// file), then the files that share the checkout's gateway database or depend on the machine's pace,
// one at a time.
export default defineConfig({
  test: {
    // Child processes, not worker threads: tests load the napi addon, start WASM workers of their
    // own, spawn anvil and src/server.ts, and install exit and signal handlers.
    pool: 'forks',
    watch: false,
    // Node's runner had no default timeout; tests that know their length still set their own.
    testTimeout: GENEROUS_TIMEOUT_MS,
    hookTimeout: GENEROUS_TIMEOUT_MS,
    teardownTimeout: 60_000,
    // Every test's name, and what tests print (measured results the docs quote) under its name; then
    // the slowest files and one plain closing line of totals for tools that read a log without
    // knowing vitest.
    reporters: ['verbose', plainSummaryReporter()],
    // Records each file's CPU for the reporter's costliest files (the run is CPU-bound on 2 cores).
    setupFiles: ['test/reporting/recordFileCpu.ts'],
    silent: false,
    projects: [
      {
        extends: true,
        test: { name: 'seed', include: [SEEDS_THE_SAVED_STATE], sequence: { groupOrder: 1 }, fileParallelism: false, maxWorkers: 1 },
      },
      {
        extends: true,
        test: {
          name: 'paired',
          // Every file the shared processes do not take (src/ is all theirs), and FRESH_PROCESS.
          include: [...TEST_FILES.filter((glob) => !glob.startsWith('src/')), ...FRESH_PROCESS],
          exclude: [
            ...configDefaults.exclude,
            SEEDS_THE_SAVED_STATE,
            ...ONE_AT_A_TIME,
            ...SHARED_PROCESS.filter((glob) => !glob.startsWith('src/')),
          ],
          sequence: { groupOrder: 2 },
          fileParallelism: true,
          maxWorkers: FILES_AT_ONCE,
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: SHARED_PROCESS,
          exclude: [...configDefaults.exclude, SEEDS_THE_SAVED_STATE, ...ONE_AT_A_TIME, ...FRESH_PROCESS],
          isolate: false,
          sequence: { groupOrder: 2 },
          fileParallelism: true,
          maxWorkers: FILES_AT_ONCE,
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ONE_AT_A_TIME, sequence: { groupOrder: 3 }, fileParallelism: false, maxWorkers: 1 },
      },
    ],
  },
})
