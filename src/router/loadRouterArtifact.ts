import { compileTargets } from '../artifacts/compileTargets.ts'
import { loadCompiledArtifacts } from '../artifacts/loadCompiledArtifacts.ts'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'

/** Where the router's sources and compile cache live. */
export type RouterArtifactPaths = { contractsDir: string; outputFile: string }

/**
 * Loads the compiled `SwapRouter` from `build/router.json`, running
 * `scripts/compile-contracts.ts` in a child process first when the cache is missing or older than
 * `contracts/router/*.sol` or `contracts/common/*.sol` (solc is never loaded into this process).
 *
 * @example
 * const { abi, bytecode } = loadRouterArtifact()
 * // → SwapRouter's ABI and creation bytecode (and deployedBytecode), compiled first when stale
 */
export function loadRouterArtifact(): ContractArtifact {
  return loadCompiledArtifacts(compileTargets().router).SwapRouter
}
