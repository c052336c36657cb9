import { readFileSync } from 'node:fs'
import { afterAll } from 'vitest'

/**
 * A vitest setup file: records the CPU a test file cost in its file task's meta (`cpuSeconds`), for
 * `plainSummaryReporter`'s costliest files. The CI run is CPU-bound on 2 cores, so a file's CPU, not
 * its wall time (which counts the other file beside it), says what it costs. Counted from
 * `/proc/self/stat` (Linux): the file's process, and every child it started and reaped meanwhile
 * (anvil, a spawned service, Python), from this module's evaluation (before the file's import) to its
 * last `afterAll` (setup files' hooks run last); in a process shared by several files, each is counted
 * from its own start. Elsewhere than Linux nothing is recorded.
 */
const started = processCpuTicks()

// vitest reads a hook's first parameter as its fixtures (an object pattern); the file is the second.
afterAll(({}, file) => {
  const ended = processCpuTicks()
  if (started === undefined || ended === undefined) return
  ;(file.meta as { cpuSeconds?: number }).cpuSeconds = (ended - started) / CLOCK_TICKS_PER_SECOND
})

/** The kernel's clock ticks per second (USER_HZ): 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100

/** utime + stime + cutime + cstime of this process, in clock ticks; undefined without /proc. */
function processCpuTicks(): number | undefined {
  let stat: string
  try {
    stat = readFileSync('/proc/self/stat', 'utf8')
  } catch {
    return undefined
  }
  // Fields after the command name (which may hold spaces), from field 3: utime is field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
}
