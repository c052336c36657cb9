import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compiledContractsPath } from '../devnet/compiledContractsPath.ts'
import { hashContractSources } from '../devnet/hashContractSources.ts'
import type { ContractArtifact } from '../devnet/loadContractArtifacts.ts'

/** Where the router's sources and compile cache live. */
export type RouterArtifactPaths = { contractsDir: string; outputFile: string }

/**
 * Loads the compiled `SwapRouter` from `build/router.json`, running
 * `scripts/compile-contracts.ts` in a child process first when the cache is missing or older than
 * `contracts/router/*.sol` (solc is never loaded into this process).
 *
 * @example
 * const { abi, bytecode } = loadRouterArtifact()
 */
export function loadRouterArtifact(): ContractArtifact {
  const { root } = compiledContractsPath()
  const contractsDir = join(root, 'contracts', 'router')
  const outputFile = join(root, 'build', 'router.json')
  const { key } = hashContractSources({ contractsDir })
  const fresh = () => existsSync(outputFile) && JSON.parse(readFileSync(outputFile, 'utf8')).key === key
  if (!fresh()) {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'compile-contracts.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    if (!fresh()) throw new Error(`compile-contracts did not produce ${outputFile} for key ${key}`)
  }
  return JSON.parse(readFileSync(outputFile, 'utf8')).contracts.SwapRouter
}
