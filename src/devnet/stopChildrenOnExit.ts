import type { ChildProcess } from 'node:child_process'

const live = new Map<ChildProcess, (() => void) | undefined>()
let installed = false

function killAll(): void {
  for (const [child, afterStop] of live) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGTERM')
      } catch {
        // Already gone.
      }
    }
    try {
      afterStop?.()
    } catch {
      // Best effort on the way out.
    }
  }
  live.clear()
}

export type StopChildrenOnExitParameters = {
  child: ChildProcess
  /** Runs after the child is signalled on the way out (e.g. removing its scratch directory). */
  afterStop?: () => void
}
export type StopChildrenOnExitReturnType = { release: () => void }

/**
 * Registers a spawned server so that it is SIGTERMed by PID on every way out of this process:
 * normal exit, an uncaught error (which ends in `exit`), SIGINT, SIGTERM and SIGHUP. The signal
 * handlers re-raise the signal's conventional exit code after cleaning up.
 *
 * @example
 * const { release } = stopChildrenOnExit({ child })
 * // ... after stopping the child yourself:
 * release()
 */
export function stopChildrenOnExit({ child, afterStop }: StopChildrenOnExitParameters): StopChildrenOnExitReturnType {
  if (!installed) {
    installed = true
    process.on('exit', killAll)
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const) {
      process.on(signal, () => {
        killAll()
        process.exit(code)
      })
    }
  }
  live.set(child, afterStop)
  child.once('exit', () => {
    if (live.delete(child)) afterStop?.()
  })
  return { release: () => live.delete(child) }
}
