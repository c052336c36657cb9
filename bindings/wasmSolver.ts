import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import {
  abandon,
  type CallChannel,
  createCallChannel,
  MAX_IN_FLIGHT,
  type Op,
  readReply,
  REPLY_OK,
  REPLY_TRAPPED,
  sendRequest,
  type TextBytes,
  whenReplied,
} from './callChannel.mjs'
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

/** The worker's one message through its port: ready, or why it could not start. */
type Ready = { id: 0; ok: true; result: 'ready' } | { id: 0; ok: false; error: SolverFault }
type Call = {
  op: Op
  payload: string
  resolve: (value: string) => void
  reject: (err: SolverError) => void
  /** The per-call timeout, from when the call started in the worker. */
  timer?: NodeJS.Timeout
  /** When the call was made (`performance.timeOrigin + performance.now()`, comparable across threads): a quote's budget runs from then. */
  madeAt: number
}
/** A call sent to the worker: its id, and its sequence number on the worker's channel. */
type InFlight = { id: number; seq: number }
/** A started worker and the main thread's end of its channel. */
type Live = { worker: Worker; channel: CallChannel; trapped: boolean }

export type CreateWasmSolverOptions = {
  /** The worker script (default `./wasmWorker.mjs`); tests pass one that can make the instance trap. */
  workerUrl?: URL
  /** Wait before the first restart after a trap or a crash; doubles on every failure in a row, up to 30 s. */
  restartDelayMs?: number
  /** Restarts in a row (no call answered between them) before the solver gives up (default 8). */
  maxRestartsInARow?: number
  /** The longest one call may run in the worker before it is failed and the worker replaced (default 60 s). */
  callTimeoutMs?: number
  /** Each of the channel's four text buffers' first and largest size (default 64 KiB, 4 MiB); longer text goes through a port. */
  channelTextBytes?: TextBytes
}

const MAX_RESTART_DELAY_MS = 30_000
/** Traps (or deaths, or timeouts) of one request before it is quarantined. */
const QUARANTINE_AFTER = 2
/** Request shapes remembered for quarantine; the oldest is forgotten past this. */
const MAX_SHAPES = 1_000

/**
 * Starts the WASM solver in a worker thread, so a long solve never blocks the event loop. Calls
 * are answered in order, one at a time, through a shared-memory channel (bindings/callChannel.mjs:
 * the main thread never blocks on it, it waits with `Atomics.waitAsync`; the next call waits in
 * the worker's other request buffer, so the worker starts it the moment it answers); a quote's `timeBudgetMs`
 * runs from when it was made, so the time it waits behind earlier calls (or for a restart) is part
 * of it. The worker holds the process open only while a call is pending.
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
  const shapeOf = (op: Op, payload: string) => createHash('sha256').update(op).update('\0').update(payload).digest('hex')
  const blame = (call: Call) => {
    const shape = shapeOf(call.op, call.payload)
    const failures = (failuresByShape.get(shape) ?? 0) + 1
    failuresByShape.delete(shape) // re-inserted last: the map forgets the oldest shapes first
    failuresByShape.set(shape, failures)
    if (failuresByShape.size > MAX_SHAPES) failuresByShape.delete(failuresByShape.keys().next().value as string)
  }
  const journal = createMarketJournal()
  /** Calls not answered yet, oldest first (ids only grow): the first ones are those in flight. */
  const calls = new Map<number, Call>()
  let nextId = 1
  let live: Live | undefined
  /** The calls sent to the current worker, oldest first: the first runs, the second waits in its request buffer. */
  let inFlight: InFlight[] = []
  let state: SolverStatus['state'] = 'ready'
  let restarts = 0
  let failuresInARow = 0
  let closed: SolverError | undefined
  /** The restart's backoff wait (it keeps the process alive: calls are waiting for it). */
  let waitingToRestart: { timer: NodeJS.Timeout; resolve: () => void } | undefined

  /** A worker that answered `ready`, or the reason it could not start. */
  const spawn = () =>
    new Promise<Live>((resolve, reject) => {
      const { channel, shared } = createCallChannel(options.channelTextBytes)
      // The worker is plain JS: it needs no TypeScript loader from the parent.
      const started = new Worker(workerUrl, {
        workerData: { config: JSON.stringify(config), channel: shared },
        transferList: [shared.port],
        execArgv: [],
      })
      const onReady = (reply: Ready) => {
        if (reply.id !== 0) return
        started.off('message', onReady)
        if (reply.ok) return resolve({ worker: started, channel, trapped: false })
        reject(SolverError.from(reply.error))
        void started.terminate()
      }
      started.on('message', onReady)
      started.once('error', (err) => reject(new SolverError('internal', `WASM worker failed to start: ${err.message}`)))
      started.once('exit', (code) => {
        // Whoever waits on its channel (the rebuild, or a call) stops waiting.
        abandon(channel)
        reject(new SolverError('internal', `WASM worker exited with code ${code} before it was ready`))
      })
    })

  /** The `n`-th oldest call not answered yet. */
  const nthCall = (n: number) => {
    let k = 0
    for (const entry of calls) if (k++ === n) return entry
    return undefined
  }

  /** Sends the oldest calls not sent yet: one to run, and the one after it to wait in the worker's other request buffer. */
  const pump = () => {
    while (live && state === 'ready' && inFlight.length < MAX_IN_FLIGHT) {
      const next = nthCall(inFlight.length)
      if (!next) return
      const [id, call] = next
      try {
        inFlight.push({ id, seq: sendRequest(live.channel, call.op, call.payload, call.madeAt) })
      } catch (err) {
        // Not sent (a text buffer could not grow): this call fails alone, the next one goes.
        calls.delete(id)
        call.reject(new SolverError('internal', `the WASM solver's channel could not carry this ${call.op}: ${String(err)}`))
        continue
      }
      if (inFlight.length === 1) startRunning(live)
    }
  }

  /** The oldest call sent to `current` runs there now: its timeout starts, and its reply is awaited. */
  const startRunning = (current: Live) => {
    const { id, seq } = inFlight[0] as InFlight
    const call = calls.get(id) as Call
    current.worker.ref()
    call.timer = setTimeout(() => timedOut(current, id), callTimeoutMs)
    call.timer.unref()
    void whenReplied(current.channel, seq).then(() => void answered(current))
  }

  /** The running call's reply, if `current`'s channel has it: the call settles and the next one runs. Whether it had it. */
  const answered = (current: Live): boolean => {
    const head = inFlight[0]
    if (live !== current || !head) return false
    const reply = readReply(current.channel, head.seq)
    const call = calls.get(head.id)
    if (!reply || !call) return false
    clearTimeout(call.timer)
    calls.delete(head.id)
    inFlight.shift()
    if (reply.status === REPLY_TRAPPED) {
      // The worker exits after this answer; its exit starts the successor.
      current.trapped = true
      lose(current)
      blame(call)
      const fault = JSON.parse(reply.text) as SolverFault
      call.reject(new SolverError('internal', `the WASM solver trapped (${String(fault.message)}); it is being restarted`))
      return true
    }
    // The next calls go before this one's caller runs: the worker is not left waiting for them.
    if (inFlight.length > 0) startRunning(current)
    pump()
    if (calls.size === 0) current.worker.unref()
    if (reply.status === REPLY_OK) {
      failuresInARow = 0
      call.resolve(reply.text)
    } else {
      call.reject(SolverError.from(JSON.parse(reply.text)))
    }
    return true
  }

  /** The running call ran past the timeout in `current`: it fails, and the worker (stuck in it) is replaced. */
  const timedOut = (current: Live, id: number) => {
    const call = calls.get(id)
    if (!call || live !== current || inFlight[0]?.id !== id || closed) return
    calls.delete(id)
    blame(call)
    call.reject(
      new SolverError('internal', `the WASM solver did not answer this ${call.op} within ${callTimeoutMs} ms; it is being restarted`),
    )
    lose(current)
    void current.worker.terminate()
    void restart()
  }

  /** One call to a worker outside the queue (the rebuild). */
  const direct = async (target: Live, op: Op, payload: string) => {
    const seq = sendRequest(target.channel, op, payload, performance.timeOrigin + performance.now())
    await whenReplied(target.channel, seq)
    const reply = readReply(target.channel, seq)
    if (!reply) throw new SolverError('internal', `the WASM worker exited during the rebuild's ${op}`)
    if (reply.status !== REPLY_OK) throw SolverError.from(JSON.parse(reply.text))
  }

  /** `current` is gone (trapped, died or stuck): nothing more is sent to it; calls wait for its successor. */
  const lose = (current: Live) => {
    if (live !== current) return
    live = undefined
    inFlight = []
    abandon(current.channel)
    state = 'restarting'
    restarts++
  }

  const attach = (current: Live) => {
    live = current
    current.worker.once('error', () => undefined) // the exit that follows restarts it
    current.worker.once('exit', () => {
      // Replies written just before the exit (a trap's, and any before it) may not have been read yet.
      while (answered(current));
      if (closed || (live !== current && !current.trapped)) return
      // Died without a trap report: the running call is the suspect (the one after it is sent again).
      const running = inFlight[0]
      const suspect = running && calls.get(running.id)
      if (live === current && running && suspect) {
        clearTimeout(suspect.timer)
        blame(suspect)
        suspect.reject(new SolverError('internal', 'the WASM worker died during this call; it is being restarted'))
        calls.delete(running.id)
      }
      lose(current)
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
    let fresh: Live | undefined
    try {
      fresh = await spawn()
      const rebuild = journal.rebuild()
      if (rebuild?.op === 'applyBlock') await direct(fresh, 'applyBlock', JSON.stringify(rebuild.update))
      else if (rebuild) await direct(fresh, 'upsertPools', JSON.stringify(rebuild.pools))
    } catch {
      await fresh?.worker.terminate()
      return restart()
    }
    if (closed) {
      await fresh.worker.terminate()
      return
    }
    attach(fresh)
    state = 'ready'
    fresh.worker.unref()
    pump()
  }

  attach(await spawn())
  live?.worker.unref()

  const call = (op: Op, payload: string): Promise<string> => {
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
      pump()
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
      inFlight = []
      if (waitingToRestart) {
        clearTimeout(waitingToRestart.timer)
        waitingToRestart.resolve()
      }
      if (live) abandon(live.channel)
      await live?.worker.terminate()
    },
  }
}
