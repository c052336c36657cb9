// The WASM solver's thread. The main thread posts {id, op, payload}; this answers {id, ok, result}
// or {id, ok: false, error}. Plain JavaScript so it runs with or without a TypeScript loader.
import { createRequire } from 'node:module'
import { parentPort, workerData } from 'node:worker_threads'

const require = createRequire(import.meta.url)
const { WasmSolver } = require('./wasm/pkg/solver.js')

let solver
try {
  solver = new WasmSolver(workerData.config)
  parentPort.postMessage({ id: 0, ok: true, result: 'ready' })
} catch (err) {
  parentPort.postMessage({ id: 0, ok: false, error: err?.message ?? String(err) })
}

const ops = {
  applyBlock: (payload) => solver.applyBlock(payload),
  upsertPools: (payload) => solver.upsertPools(payload),
  removePools: (payload) => solver.removePools(payload),
  quote: (payload) => solver.quote(payload),
  simulate: (payload) => solver.simulate(payload),
}

parentPort.on('message', ({ id, op, payload }) => {
  try {
    parentPort.postMessage({ id, ok: true, result: ops[op](payload) })
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err?.message ?? String(err) })
  }
})
