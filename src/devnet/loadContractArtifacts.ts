import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Abi, Hex } from 'viem'
import { compiledContractsPath } from './compiledContractsPath.ts'
import { hashContractSources } from './hashContractSources.ts'

/** ABI and bytecode of one compiled contract. */
export type ContractArtifact = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }

/** Our own contracts, by name (`TestERC20`, `WETH9`, `Multicall3`, `PoolHarness`, ...). */
export type LoadContractArtifactsReturnType = Record<string, ContractArtifact>

/**
 * Loads our compiled contracts from `build/contracts.json`, first running
 * `scripts/compile-contracts.ts` in a child process when the cache is missing or stale (solc is
 * never loaded into this process).
 *
 * @example
 * const { TestERC20 } = loadContractArtifacts()
 */
export function loadContractArtifacts(): LoadContractArtifactsReturnType {
  const { root, contractsDir, outputFile } = compiledContractsPath()
  const { key } = hashContractSources({ contractsDir })
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
