// The WASM solver's thread, shared by the real worker (wasmWorker.mjs) and test workers that wrap
// operations. It says `{id: 0, ok: true, result: 'ready'}` (or `{id: 0, ok: false, error}`) once
// through its parent port, then serves calls through the shared-memory channel
// (bindings/callChannel.mjs): a result, or a solver error's properties as JSON ({code, message,
// field, pool, dex}). Plain JavaScript so it runs with or without a TypeScript loader.
import { createRequire } from 'node:module'
import { parentPort, workerData } from 'node:worker_threads'
import { openCallChannel, REPLY_FAILED, REPLY_OK, REPLY_TRAPPED, sendReply, takeRequest } from './callChannel.mjs'

const require = createRequire(import.meta.url)

/** Exit code of a worker whose WASM instance trapped. */
export const TRAPPED_EXIT_CODE = 70

/**
 * Serves the solver's calls until a trap. A trap (a WebAssembly.RuntimeError: a panic aborting, a
 * bad memory access) leaves the instance in no state to answer again, so the worker reports it and
 * exits; the parent starts a new one (bindings/wasmSolver.ts). Between calls the thread sleeps in
 * `Atomics.wait` (it has nothing else to do); `worker.terminate()` still ends it there.
 *
 * @param {{ extraOps?: Record<string, (solver: unknown, payload: string, WasmSolver: unknown) => string> }} [options]
 *   operations that replace the solver's own (tests only)
 * @example
 * serveWasmSolver()
 */
export function serveWasmSolver({ extraOps = {} } = {}) {
  const faultOf = (err) => ({ code: err?.code, message: err?.message ?? String(err), field: err?.field, pool: err?.pool, dex: err?.dex })
  const { WasmSolver } = require('./wasm/pkg/solver.js')
  let solver
  try {
    solver = new WasmSolver(workerData.config)
    parentPort.postMessage({ id: 0, ok: true, result: 'ready' })
  } catch (err) {
    parentPort.postMessage({ id: 0, ok: false, error: faultOf(err) })
    return
  }
  const ops = {
    applyBlock: (payload) => solver.applyBlock(payload),
    upsertPools: (payload) => solver.upsertPools(payload),
    removePools: (payload) => solver.removePools(payload),
    // The budget runs from when the caller made the call: the wait in the queue is taken from it.
    quote: (payload, waitedMs) => solver.quoteAfterWait(payload, waitedMs),
    simulate: (payload) => solver.simulate(payload),
    waterfill: (payload) => solver.waterfill(payload),
  }
  const channel = openCallChannel(workerData.channel)
  for (let taken = 0; ;) {
    const { seq, op, payload, madeAt } = takeRequest(channel, taken)
    try {
      const run = extraOps[op] ? (p) => extraOps[op](solver, p, WasmSolver) : ops[op]
      const waitedMs = Math.max(0, performance.timeOrigin + performance.now() - madeAt)
      sendReply(channel, seq, REPLY_OK, run(payload, waitedMs))
    } catch (err) {
      const trapped = err instanceof WebAssembly.RuntimeError
      sendReply(channel, seq, trapped ? REPLY_TRAPPED : REPLY_FAILED, JSON.stringify(faultOf(err)))
      if (trapped) process.exit(TRAPPED_EXIT_CODE)
    }
    taken = seq
  }
}
