import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { SolverError, type SolverFault } from './errors.ts'
import { createMarketJournal } from './marketJournal.ts'
import type {
  BlockResult,
  BlockUpdate,
  PoolInput,
  SimulateRequest,
  SimulateResult,
  Solver,
  SolverConfig,
  SolverPlan,
  SolverQuoteRequest,
  SolverStatus,
  UpsertResult,
  WaterfillPlan,
} from './types.ts'

/** A worker's answer; `trapped`: the WASM instance trapped on this call and the worker is gone. */
type Reply = { id: number; ok: true; result: string } | { id: number; ok: false; error: SolverFault; trapped?: boolean }
type Call = {
  op: string
  payload: string
  resolve: (value: string) => void
  reject: (err: SolverError) => void
  /** The per-call timeout of the worker it was sent to. */
  timer?: NodeJS.Timeout
  /** When the call was made (`performance.timeOrigin + performance.now()`, comparable across threads): a quote's budget runs from then. */
  madeAt: number
}

export type CreateWasmSolverOptions = {
  /** The worker script (default `./wasmWorker.mjs`); tests pass one that can make the instance trap. */
  workerUrl?: URL
  /** Wait before the first restart after a trap or a crash; doubles on every failure in a row, up to 30 s. */
  restartDelayMs?: number
  /** Restarts in a row (no call answered between them) before the solver gives up (default 8). */
  maxRestartsInARow?: number
  /** The longest one call may run in the worker before it is failed and the worker replaced (default 60 s). */
  callTimeoutMs?: number
}

const MAX_RESTART_DELAY_MS = 30_000
/** Traps (or deaths, or timeouts) of one request before it is quarantined. */
const QUARANTINE_AFTER = 2
/** Request shapes remembered for quarantine; the oldest is forgotten past this. */
const MAX_SHAPES = 1_000

/**
 * Starts the WASM solver in a worker thread, so a long solve never blocks the event loop. Calls
 * are answered in order; a quote's `timeBudgetMs` runs from when it was made, so the time it waits
 * behind earlier calls (or for a restart) is part of it. The worker holds the process open only
 * while a call is pending.
 *
 * A WASM instance that trapped (a panic aborts, a bad memory access) is in no state to answer
 * again, so the worker exits on a trap: the call that trapped fails with an internal error, a new
 * worker is started, the market is rebuilt in it from the journal of the calls answered so far, and
 * the calls still waiting are sent to it, in order. A worker that dies another way is replaced the
 * same way (its running call fails), and so is one whose call runs past `callTimeoutMs` (the call
 * fails with a timeout). Restarts in a row back off (`restartDelayMs`, doubling up to 30 s);
 * `status()` says `restarting` meanwhile, and calls wait for the new worker. After
 * `maxRestartsInARow` restarts with no call answered between them (or a rebuild that keeps
 * failing), the solver gives up: `status()` says `failed` and every call is refused.
 *
 * A request that trapped (or killed or hung its worker) twice, the same operation with the same
 * payload, is quarantined: it is answered at once with an internal error saying so and never sent
 * again, so one bad request cannot make every call wait for a rebuild.
 *
 * @example
 * ```ts
 * import { createWasmSolver } from './wasmSolver.ts'
 * const solver = await createWasmSolver({ nativeToken: '0x4200000000000000000000000000000000000006' })
 * // → a Solver with backend 'wasm', running in a worker thread
 * await solver.close() // the worker is terminated
 * ```
 */
export async function createWasmSolver(config: SolverConfig, options: CreateWasmSolverOptions = {}): Promise<Solver> {
  const workerUrl = options.workerUrl ?? new URL('./wasmWorker.mjs', import.meta.url)
  const baseDelayMs = options.restartDelayMs ?? 100
  const maxRestartsInARow = options.maxRestartsInARow ?? 8
  const callTimeoutMs = options.callTimeoutMs ?? 60_000
  /** Per request shape (a hash of operation and payload), how many times it brought a worker down. */
  const failuresByShape = new Map<string, number>()
  const shapeOf = (op: string, payload: string) => createHash('sha256').update(op).update('\0').update(payload).digest('hex')
  const blame = (call: Call) => {
    const shape = shapeOf(call.op, call.payload)
    const failures = (failuresByShape.get(shape) ?? 0) + 1
    failuresByShape.delete(shape) // re-inserted last: the map forgets the oldest shapes first
    failuresByShape.set(shape, failures)
    if (failuresByShape.size > MAX_SHAPES) failuresByShape.delete(failuresByShape.keys().next().value as string)
  }
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
    const live = worker
    if (!live) return
    live.ref()
    clearTimeout(call.timer)
    call.timer = setTimeout(() => timedOut(live, id), callTimeoutMs)
    call.timer.unref()
    live.postMessage({ id, op: call.op, payload: call.payload, madeAt: call.madeAt })
  }

  /** Call `id` ran past the timeout in `live`: it fails, and the worker (stuck in it) is replaced. */
  const timedOut = (live: Worker, id: number) => {
    const call = calls.get(id)
    if (!call || worker !== live || closed) return
    calls.delete(id)
    blame(call)
    call.reject(
      new SolverError('internal', `the WASM solver did not answer this ${call.op} within ${callTimeoutMs} ms; it is being restarted`),
    )
    lose(live)
    void live.terminate()
    void restart()
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
      clearTimeout(call.timer)
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
        blame(call)
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
      const suspect = calls.get(running)
      if (!trapped && suspect) {
        clearTimeout(suspect.timer)
        blame(suspect)
        suspect.reject(new SolverError('internal', 'the WASM worker died during this call; it is being restarted'))
        calls.delete(running)
      }
      lose(live)
      void restart()
    })
  }

  /** Starts a successor after a backoff, rebuilds the market in it, then sends it the waiting calls. */
  const restart = async (): Promise<void> => {
    failuresInARow++
    if (failuresInARow > maxRestartsInARow) {
      state = 'failed'
      closed ??= new SolverError(
        'internal',
        `the WASM solver failed ${failuresInARow} times in a row without answering a call; it is not restarted again`,
      )
      for (const call of calls.values()) {
        clearTimeout(call.timer)
        call.reject(closed)
      }
      calls.clear()
      return
    }
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
    // Hashed only once a request has failed: hashing every payload (a whole market's upsert is
    // megabytes) would cost every call for a map that is almost always empty.
    const failures = failuresByShape.size === 0 ? 0 : (failuresByShape.get(shapeOf(op, payload)) ?? 0)
    if (failures >= QUARANTINE_AFTER) {
      return Promise.reject(
        new SolverError(
          'internal',
          `this ${op} request made the WASM solver fail ${failures} times (a trap, a crash or a timeout); it is quarantined: refused without being sent again`,
        ),
      )
    }
    const id = nextId++
    return new Promise<string>((resolve, reject) => {
      calls.set(id, { op, payload, resolve, reject, madeAt: performance.timeOrigin + performance.now() })
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
      for (const { reject, timer } of calls.values()) {
        clearTimeout(timer)
        reject(closed)
      }
      calls.clear()
      if (waitingToRestart) {
        clearTimeout(waitingToRestart.timer)
        waitingToRestart.resolve()
      }
      await worker?.terminate()
    },
  }
}
