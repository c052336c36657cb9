import { join } from 'node:path'
import { compiledContractsPath } from '../../devnet/compiledContractsPath.ts'
import { loadCompiledArtifacts } from '../../devnet/loadCompiledArtifacts.ts'

export type CompiledTickLens = { abi: unknown[]; deployedBytecode: `0x${string}` }

/**
 * The compiled `contracts/lens/TickLens.sol` from `build/lens.json`, running
 * `scripts/compile-contracts.ts` in a child process first when the cache is missing or stale (solc
 * is never loaded into this process).
 *
 * @example
 * const { deployedBytecode } = compiledTickLens()
 */
export function compiledTickLens(): CompiledTickLens {
  const { root } = compiledContractsPath()
  const { TickLens } = loadCompiledArtifacts({ contractsDir: join(root, 'contracts', 'lens'), outputFile: join(root, 'build', 'lens.json') })
  return TickLens as unknown as CompiledTickLens
}
