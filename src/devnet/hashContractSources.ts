import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

export type HashContractSourcesParameters = {
  /** Directory holding the `.sol` files (not recursive). */
  contractsDir: string
}

export type HashContractSourcesReturnType = {
  /** sha256 over the solc version and every source's name and content, in name order. */
  key: string
  solcVersion: string
  /** Source file names, sorted. */
  files: string[]
}

/**
 * Computes the cache key of the compiled contracts without loading solc itself (requiring solc
 * installs a rethrowing `unhandledRejection` handler, so only the build step may load it).
 *
 * @example
 * const { key } = hashContractSources({ contractsDir: 'contracts' })
 */
export function hashContractSources({ contractsDir }: HashContractSourcesParameters): HashContractSourcesReturnType {
  const require = createRequire(import.meta.url)
  const solcVersion: string = require('solc/package.json').version
  const files = readdirSync(contractsDir).filter((f) => f.endsWith('.sol')).sort()
  const hash = createHash('sha256').update(`solc ${solcVersion}\n`)
  for (const file of files) {
    hash.update(`${file}\n`).update(readFileSync(join(contractsDir, file))).update('\n')
  }
  return { key: hash.digest('hex'), solcVersion, files }
}
