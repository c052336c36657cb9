// The WASM solver's worker thread (bindings/wasmSolver.ts starts it).
import { serveWasmSolver } from './serveWasmSolver.mjs'

serveWasmSolver()
