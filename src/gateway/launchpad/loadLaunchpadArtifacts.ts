import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compiledContractsPath } from '../../artifacts/compiledContractsPath.ts'
import { hashContractSources } from '../../artifacts/hashContractSources.ts'
import type { ContractArtifact } from '../../artifacts/loadContractArtifacts.ts'

/** The launchpad's compiled contracts. */
export type LaunchpadArtifacts = Record<'LaunchFactory' | 'LaunchToken' | 'FeeLocker' | 'VestingVault', ContractArtifact>

/**
 * Loads the launchpad contracts from `build/launchpad.json`, running `scripts/compile-contracts.ts`
 * in a child process first when the cache is missing or older than `contracts/launchpad/*.sol`
 * (solc is never loaded into this process).
 *
 * @example
 * const { LaunchFactory } = loadLaunchpadArtifacts()
 */
export function loadLaunchpadArtifacts(): LaunchpadArtifacts {
  const { root } = compiledContractsPath()
  const outputFile = join(root, 'build', 'launchpad.json')
  const { key } = hashContractSources({ contractsDir: join(root, 'contracts', 'launchpad') })
  const fresh = () => existsSync(outputFile) && JSON.parse(readFileSync(outputFile, 'utf8')).key === key
  if (!fresh()) {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'compile-contracts.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    if (!fresh()) throw new Error(`compile-contracts did not produce ${outputFile} for key ${key}`)
  }
  return JSON.parse(readFileSync(outputFile, 'utf8')).contracts
}
