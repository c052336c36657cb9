import { join } from 'node:path'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'
import { compileVyperArtifact } from './compileVyperArtifact.ts'
import { runInstallScript } from './runInstallScript.ts'

/**
 * Curve's own StableSwap-NG pool (`CurveStableSwapNG.vy` v7.0.0, the implementation deployed NG
 * pools run), compiled with the compiler it names (Vyper 0.3.10) from the source Pygments' PyPI
 * source distribution ships, both installed by `scripts/install-vyper.sh` under `build/vyper/`.
 * Cached in `build/curve-stableswap-ng.json`, keyed by the source and the compiler version, and in
 * the process after the first call.
 *
 * @example
 * const { abi, bytecode } = await loadCurveStableSwapNgArtifact()
 */
export function loadCurveStableSwapNgArtifact(): Promise<ContractArtifact> {
  // Once a process: every pool creation asks, and the install check and `vyper --version` (a Python
  // start) cost about a second each on a busy machine.
  // A failed load is forgotten, so the next call tries again.
  loaded ??= load().catch((error: unknown) => {
    loaded = undefined
    throw error
  })
  return loaded
}

let loaded: Promise<ContractArtifact> | undefined

async function load(): Promise<ContractArtifact> {
  const { root } = compiledContractsPath()
  const dir = join(root, 'build', 'vyper')
  // Idempotent: returns at once when the versions it names are installed.
  await runInstallScript({ script: 'install-vyper.sh' })
  return compileVyperArtifact({
    vyper: join(dir, 'venv', 'bin', 'vyper'),
    sourceFile: join(dir, 'curvefi', 'CurveStableSwapNG.vy'),
    outputFile: join(root, 'build', 'curve-stableswap-ng.json'),
  })
}
