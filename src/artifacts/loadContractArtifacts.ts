import type { Abi, Hex } from 'viem'
import { compiledContractsPath } from './compiledContractsPath.ts'
import { loadCompiledArtifacts } from './loadCompiledArtifacts.ts'

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
 * // → TestERC20's { abi, bytecode, deployedBytecode }; every contract of contracts/test/ by name
 */
export function loadContractArtifacts(): LoadContractArtifactsReturnType {
  const { contractsDir, outputFile } = compiledContractsPath()
  return loadCompiledArtifacts({ contractsDir, outputFile })
}
