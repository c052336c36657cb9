import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compiledContractsPath } from './compiledContractsPath.ts'
import { hashContractSources } from './hashContractSources.ts'

export type CompiledLensContract = { abi: unknown[]; deployedBytecode: `0x${string}` }

/**
 * One contract of `contracts/lens/` (code the service runs by `eth_call` with a state override,
 * never deployed) from `build/lens.json`, running `scripts/compile-contracts.ts` in a child process
 * first when the cache is missing or stale (solc is never loaded into this process). Used by the
 * scripts that write the checked-in artifacts and by the tests that compare them.
 *
 * @example
 * const { deployedBytecode } = compiledLensContract({ name: 'TokenTransferProbe' })
 */
export function compiledLensContract({ name }: { name: string }): CompiledLensContract {
  const { root } = compiledContractsPath()
  const outputFile = join(root, 'build', 'lens.json')
  const { key } = hashContractSources({ contractsDir: join(root, 'contracts', 'lens') })
  const fresh = () => existsSync(outputFile) && JSON.parse(readFileSync(outputFile, 'utf8')).key === key
  if (!fresh()) {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'compile-contracts.ts')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
    if (!fresh()) throw new Error(`compile-contracts did not produce ${outputFile} for key ${key}`)
  }
  const contract = JSON.parse(readFileSync(outputFile, 'utf8')).contracts[name]
  if (!contract) throw new Error(`${outputFile} has no contract ${name}`)
  return contract
}
