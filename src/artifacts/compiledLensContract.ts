import { join } from 'node:path'
import { compiledContractsPath } from './compiledContractsPath.ts'
import { loadCompiledArtifacts } from './loadCompiledArtifacts.ts'

export type CompiledLensContract = { abi: unknown[]; deployedBytecode: `0x${string}` }

/**
 * One contract of `contracts/lens/` (code the service runs by `eth_call` with a state override,
 * never deployed) from `build/lens.json`, compiled first when the cache is missing or stale. Used
 * by the scripts that write the checked-in artifacts and by the tests that compare them.
 *
 * @example
 * const { deployedBytecode } = compiledLensContract({ name: 'TokenTransferProbe' })
 * // → the probe's runtime code, '0x…'; an Error when build/lens.json has no such contract
 */
export function compiledLensContract({ name }: { name: string }): CompiledLensContract {
  const { root } = compiledContractsPath()
  const outputFile = join(root, 'build', 'lens.json')
  const contract = loadCompiledArtifacts({ contractsDir: join(root, 'contracts', 'lens'), outputFile })[name]
  if (!contract) throw new Error(`${outputFile} has no contract ${name}`)
  return contract as unknown as CompiledLensContract
}
