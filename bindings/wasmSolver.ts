import { Worker } from 'node:worker_threads'
import { SolverError, type SolverFault } from './errors.ts'
import { createMarketJournal } from './marketJournal.ts'
import type {
  BlockResult, BlockUpdate, PoolInput, SimulateRequest, SimulateResult, Solver, SolverConfig, SolverPlan, SolverQuoteRequest,
  SolverStatus, UpsertResult, WaterfillPlan,
} from './types.ts'

/** A worker's answer; `trapped`: the WASM instance trapped on this call and the worker is gone. */
type Reply = { id: number; ok: true; result: string } | { id: number; ok: false; error: SolverFault; trapped?: boolean }
type Call = { op: string; payload: string; resolve: (value: string) => void; reject: (err: SolverError) => void }

export type CreateWasmSolverOptions = {
  /** The worker script (default `./wasmWorker.mjs`); tests pass one that can make the instance trap. */
  workerUrl?: URL
  /** Wait before the first restart after a trap or a crash; doubles on every failure in a row, up to 30 s. */
  restartDelayMs?: number
}

const MAX_RESTART_DELAY_MS = 30_000

/**
 * Starts the WASM solver in a worker thread, so a long solve never blocks the event loop. Calls
 * are answered in order. The worker holds the process open only while a call is pending.
 *
 * A WASM instance that trapped (a panic aborts, a bad memory access) is in no state to answer
 * again, so the worker exits on a trap: the call that trapped fails with an internal error, a new
 * worker is started, the market is rebuilt in it from the journal of the calls answered so far, and
 * the calls still waiting are sent to it, in order. A worker that dies another way is replaced the
 * same way (its running call fails). Restarts in a row back off (`restartDelayMs`, doubling up to
 * 30 s); `status()` says `restarting` meanwhile, and calls wait for the new worker.
 *
 * @example
 * ```ts
 * import { createWasmSolver } from './wasmSolver.ts'
 * const solver = await createWasmSolver({ nativeToken: '0x4200000000000000000000000000000000000006' })
 * await solver.close()
 * ```
 */
export async function createWasmSolver(config: SolverConfig, options: CreateWasmSolverOptions = {}): Promise<Solver> {
  const workerUrl = options.workerUrl ?? new URL('./wasmWorker.mjs', import.meta.url)
  const baseDelayMs = options.restartDelayMs ?? 100
  const journal = createMarketJournal()
  const calls = new Map<number, Call>()
  let nextId = 1
  let worker: Worker | undefined
  let state: SolverStatus['state'] = 'ready'
  let restarts = 0
  let failuresInARow = 0
  let closed: SolverError | undefined
  /** The restart's backoff wait (it keeps the process alive: calls are waiting for it). */
  let waitingToRestart: { timer: NodeJS.Timeout; resolve: () => void } | undefined

  /** A worker that answered `ready`, or the reason it could not start. */
  const spawn = () =>
    new Promise<Worker>((resolve, reject) => {
      // The worker is plain JS: it needs no TypeScript loader from the parent.
      const started = new Worker(workerUrl, { workerData: { config: JSON.stringify(config) }, execArgv: [] })
      const onReady = (reply: Reply) => {
        if (reply.id !== 0) return
        started.off('message', onReady)
        if (reply.ok) return resolve(started)
        reject(SolverError.from(reply.error))
        void started.terminate()
      }
      started.on('message', onReady)
      started.once('error', (err) => reject(new SolverError('internal', `WASM worker failed to start: ${err.message}`)))
      started.once('exit', (code) => reject(new SolverError('internal', `WASM worker exited with code ${code} before it was ready`)))
    })

  const send = (id: number) => {
    const call = calls.get(id) as Call
    worker?.ref()
    worker?.postMessage({ id, op: call.op, payload: call.payload })
  }

  /** One call to the current worker outside the queue (the rebuild), answered by `id`. */
  const direct = (target: Worker, id: number, op: string, payload: string) =>
    new Promise<void>((resolve, reject) => {
      const onReply = (reply: Reply) => {
        if (reply.id !== id) return
        target.off('message', onReply)
        if (reply.ok) resolve()
        else reject(SolverError.from(reply.error))
      }
      target.on('message', onReply)
      target.postMessage({ id, op, payload })
    })

  /** `live` is gone (trapped or died): nothing more is sent to it; calls wait for its successor. */
  const lose = (live: Worker) => {
    if (worker !== live) return
    worker = undefined
    state = 'restarting'
    restarts++
  }

  const attach = (live: Worker) => {
    worker = live
    let trapped = false
    live.on('message', (reply: Reply) => {
      const call = calls.get(reply.id)
      if (!call || reply.id <= 0) return
      calls.delete(reply.id)
      if (calls.size === 0) live.unref()
      if (reply.ok) {
        failuresInARow = 0
        call.resolve(reply.result)
      } else if (reply.trapped) {
        // The worker exits after this answer; its exit starts the successor.
        trapped = true
        live.ref()
        lose(live)
        call.reject(new SolverError('internal', `the WASM solver trapped (${reply.error.message}); it is being restarted`))
      } else {
        call.reject(SolverError.from(reply.error))
      }
    })
    live.once('error', () => undefined) // the exit that follows restarts it
    live.once('exit', () => {
      if (closed || (worker !== live && !trapped)) return
      // Died without a trap report: the oldest unanswered call was running and is the suspect.
      const running = Math.min(...calls.keys())
      if (!trapped && Number.isFinite(running)) {
        calls.get(running)?.reject(new SolverError('internal', 'the WASM worker died during this call; it is being restarted'))
        calls.delete(running)
      }
      lose(live)
      void restart()
    })
  }

  /** Starts a successor after a backoff, rebuilds the market in it, then sends it the waiting calls. */
  const restart = async (): Promise<void> => {
    failuresInARow++
    const delay = Math.min(baseDelayMs * 2 ** (failuresInARow - 1), MAX_RESTART_DELAY_MS)
    await new Promise<void>((resolve) => {
      waitingToRestart = { timer: setTimeout(resolve, delay), resolve }
    })
    waitingToRestart = undefined
    if (closed) return
    let fresh: Worker | undefined
    try {
      fresh = await spawn()
      const rebuild = journal.rebuild()
      if (rebuild?.op === 'applyBlock') await direct(fresh, -restarts, 'applyBlock', JSON.stringify(rebuild.update))
      else if (rebuild) await direct(fresh, -restarts, 'upsertPools', JSON.stringify(rebuild.pools))
    } catch {
      await fresh?.terminate()
      return restart()
    }
    if (closed) {
      await fresh.terminate()
      return
    }
    attach(fresh)
    state = 'ready'
    fresh.unref()
    for (const id of [...calls.keys()].sort((a, b) => a - b)) send(id)
  }

  attach(await spawn())
  worker?.unref()

  const call = (op: string, payload: string): Promise<string> => {
    if (closed) return Promise.reject(closed)
    const id = nextId++
    return new Promise<string>((resolve, reject) => {
      calls.set(id, { op, payload, resolve, reject })
      if (worker && state === 'ready') send(id)
    })
  }

  return {
    backend: 'wasm',
    applyBlock: async (update: BlockUpdate) => {
      const result = JSON.parse(await call('applyBlock', JSON.stringify(update))) as BlockResult
      journal.applied(update, result)
      return result
    },
    upsertPools: async (pools: PoolInput[]) => {
      const result = JSON.parse(await call('upsertPools', JSON.stringify(pools))) as UpsertResult
      journal.upserted(pools)
      return result
    },
    removePools: async (ids: string[]) => {
      const result = JSON.parse(await call('removePools', JSON.stringify(ids))) as UpsertResult
      journal.removed(ids)
      return result
    },
    quoteJson: (request: SolverQuoteRequest) => call('quote', JSON.stringify(request)),
    quote: async (request: SolverQuoteRequest) => JSON.parse(await call('quote', JSON.stringify(request))) as SolverPlan,
    simulate: async (request: SimulateRequest) => JSON.parse(await call('simulate', JSON.stringify(request))) as SimulateResult,
    waterfill: async (request: SolverQuoteRequest) => JSON.parse(await call('waterfill', JSON.stringify(request))) as WaterfillPlan,
    status: () => ({ backend: 'wasm', state, restarts }),
    close: async () => {
      closed ??= new SolverError('internal', 'the solver was closed')
      for (const { reject } of calls.values()) reject(closed)
      calls.clear()
      if (waitingToRestart) {
        clearTimeout(waitingToRestart.timer)
        waitingToRestart.resolve()
      }
      await worker?.terminate()
    },
  }
}
