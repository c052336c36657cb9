import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'
import { loadCompiledArtifacts } from '../artifacts/loadCompiledArtifacts.ts'
import { type StandInProtocol, standInCompileTarget } from './standInCompileTarget.ts'

/**
 * Loads one protocol's compiled stand-in contracts (`contracts/<protocol>/`) from
 * `build/<protocol>.json` by name, compiling first when the cache is stale.
 *
 * @example
 * const { Pool, PoolFactory } = loadStandInArtifacts({ protocol: 'aerodrome' })
 * // → each contract's { abi, bytecode, deployedBytecode } from build/aerodrome.json
 */
export function loadStandInArtifacts({ protocol }: { protocol: StandInProtocol }): Record<string, ContractArtifact> {
  const { contractsDir, outputFile, libraryDirs } = standInCompileTarget({ protocol })
  return loadCompiledArtifacts({ contractsDir, outputFile, libraryDirs })
}
