import { compileTargets } from '../../artifacts/compileTargets.ts'
import { loadCompiledArtifacts } from '../../artifacts/loadCompiledArtifacts.ts'
import type { ContractArtifact } from '../../artifacts/loadContractArtifacts.ts'

/** The launchpad's compiled contracts. */
export type LaunchpadArtifacts = Record<'LaunchFactory' | 'LaunchToken' | 'FeeLocker' | 'VestingVault', ContractArtifact>

/**
 * Loads the launchpad contracts from `build/launchpad.json`, running `scripts/compile-contracts.ts`
 * in a child process first when the cache is missing or older than `contracts/launchpad/*.sol`
 * or `contracts/common/*.sol` (solc is never loaded into this process).
 *
 * @example
 * const { LaunchFactory } = loadLaunchpadArtifacts()
 * // LaunchFactory → { abi, bytecode, deployedBytecode }; LaunchToken, FeeLocker, VestingVault alike; compiled first when stale
 */
export function loadLaunchpadArtifacts(): LaunchpadArtifacts {
  return loadCompiledArtifacts(compileTargets().launchpad) as LaunchpadArtifacts
}
