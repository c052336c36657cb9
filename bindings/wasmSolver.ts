import { Worker } from 'node:worker_threads'
import { SolverError } from './errors.ts'
import type {
  BlockResult, BlockUpdate, PoolInput, SimulateRequest, SimulateResult, Solver, SolverConfig, SolverPlan, SolverQuoteRequest, UpsertResult,
} from './types.ts'

type Reply = { id: number; ok: true; result: string } | { id: number; ok: false; error: string }
type Pending = { resolve: (value: string) => void; reject: (err: SolverError) => void }

/**
 * Starts the WASM solver in a worker thread, so a long solve never blocks the event loop. Calls
 * are answered in order. The worker holds the process open only while a call is pending.
 *
 * @example
 * ```ts
 * import { createWasmSolver } from './wasmSolver.ts'
 * const solver = await createWasmSolver({ nativeToken: '0x4200000000000000000000000000000000000006' })
 * await solver.close()
 * ```
 */
export async function createWasmSolver(config: SolverConfig): Promise<Solver> {
  const worker = new Worker(new URL('./wasmWorker.mjs', import.meta.url), {
    workerData: { config: JSON.stringify(config) },
    // The worker is plain JS: it needs no TypeScript loader from the parent.
    execArgv: [],
  })
  const pending = new Map<number, Pending>()
  let nextId = 1
  let failure: SolverError | undefined

  const failAll = (err: SolverError) => {
    failure ??= err
    for (const { reject } of pending.values()) reject(err)
    pending.clear()
    worker.unref()
  }
  worker.on('error', (err) => failAll(new SolverError('internal', `WASM worker failed: ${err.message}`)))
  worker.on('exit', (code) => failAll(new SolverError('internal', `WASM worker exited with code ${code}`)))
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id)
    if (!waiter) return
    pending.delete(reply.id)
    if (pending.size === 0) worker.unref()
    if (reply.ok) waiter.resolve(reply.result)
    else waiter.reject(SolverError.fromMessage(reply.error))
  })

  const ready = new Promise<string>((resolve, reject) => pending.set(0, { resolve, reject }))
  worker.ref()
  try {
    await ready
  } catch (err) {
    await worker.terminate()
    throw err
  }

  const call = (op: string, payload: string): Promise<string> => {
    if (failure) return Promise.reject(failure)
    const id = nextId++
    return new Promise<string>((resolve, reject) => {
      pending.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ id, op, payload })
    })
  }

  return {
    backend: 'wasm',
    applyBlock: async (update: BlockUpdate) => JSON.parse(await call('applyBlock', JSON.stringify(update))) as BlockResult,
    upsertPools: async (pools: PoolInput[]) => JSON.parse(await call('upsertPools', JSON.stringify(pools))) as UpsertResult,
    removePools: async (ids: string[]) => JSON.parse(await call('removePools', JSON.stringify(ids))) as UpsertResult,
    quoteJson: (request: SolverQuoteRequest) => call('quote', JSON.stringify(request)),
    quote: async (request: SolverQuoteRequest) => JSON.parse(await call('quote', JSON.stringify(request))) as SolverPlan,
    simulate: async (request: SimulateRequest) => JSON.parse(await call('simulate', JSON.stringify(request))) as SimulateResult,
    close: async () => {
      failure ??= new SolverError('internal', 'the solver was closed')
      worker.removeAllListeners('exit')
      await worker.terminate()
    },
  }
}
