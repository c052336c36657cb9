import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compiledContractsPath } from './compiledContractsPath.ts'
import { hashContractSources } from './hashContractSources.ts'
import type { ContractArtifact } from './loadContractArtifacts.ts'

export type LoadCompiledArtifactsParameters = {
  /** The sources of the compilation (not recursive). */
  contractsDir: string
  /** Its cache file, written by `scripts/compile-contracts.ts`. */
  outputFile: string
  /** Shared source directories it imports (see `hashContractSources`). */
  libraryDirs?: string[]
}

/**
 * The contracts of one compilation from its cache file, by name, running
 * `scripts/compile-contracts.ts` in a child process first when the cache is missing or older than
 * its sources (solc is never loaded into this process: it installs a rethrowing rejection handler).
 *
 * @example
 * const { SwapRouter } = loadCompiledArtifacts({ contractsDir: 'contracts/router', outputFile: 'build/router.json' })
 * // → SwapRouter's { abi, bytecode, deployedBytecode }; compiled first when the sources changed
 */
export function loadCompiledArtifacts({
  contractsDir,
  outputFile,
  libraryDirs,
}: LoadCompiledArtifactsParameters): Record<string, ContractArtifact> {
  const { root } = compiledContractsPath()
  const { key } = hashContractSources({ contractsDir, libraryDirs })
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
