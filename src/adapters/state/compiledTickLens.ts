import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compiledContractsPath } from '../../devnet/compiledContractsPath.ts'
import { hashContractSources } from '../../devnet/hashContractSources.ts'

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
  const outputFile = join(root, 'build', 'lens.json')
  const { key } = hashContractSources({ contractsDir: join(root, 'contracts', 'lens') })
  const fresh = () => existsSync(outputFile) && JSON.parse(readFileSync(outputFile, 'utf8')).key === key
  if (!fresh()) {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'compile-contracts.ts')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
    if (!fresh()) throw new Error(`compile-contracts did not produce ${outputFile} for key ${key}`)
  }
  return JSON.parse(readFileSync(outputFile, 'utf8')).contracts.TickLens
}
