import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join } from 'node:path'
import { compiledContractsPath } from './compiledContractsPath.ts'

export type HashContractSourcesParameters = {
  /** Directory holding the `.sol` files (not recursive). */
  contractsDir: string
  /**
   * Directories of shared sources the contracts import by relative path (`../common/X.sol`). When
   * given, every source is named `<folder>/<file>` (its folder under `contracts/`), as solc sees it.
   */
  libraryDirs?: string[]
}

export type HashContractSourcesReturnType = {
  /**
   * sha256 over the solc version, every source's name and content in name order, and the version
   * of every npm package a source imports from (`@uniswap/v4-core/...`).
   */
  key: string
  solcVersion: string
  /** Source unit names, sorted: file names, or `<folder>/<file>` with `libraryDirs`. */
  files: string[]
  /** Absolute path of each source unit. */
  paths: Record<string, string>
}

/**
 * Computes the cache key of the compiled contracts without loading solc itself (requiring solc
 * installs a rethrowing `unhandledRejection` handler, so only the build step may load it).
 *
 * @example
 * const { key } = hashContractSources({ contractsDir: 'contracts' })
 * // → key: SHA-256 hex of solc's version, the sources and the imported packages' versions
 * const standIns = hashContractSources({ contractsDir: 'contracts/aerodrome', libraryDirs: ['contracts/common'] })
 */
export function hashContractSources({ contractsDir, libraryDirs }: HashContractSourcesParameters): HashContractSourcesReturnType {
  const require = createRequire(import.meta.url)
  const solcVersion: string = require('solc/package.json').version
  const paths: Record<string, string> = {}
  for (const dir of [contractsDir, ...(libraryDirs ?? [])]) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sol'))) {
      paths[libraryDirs ? `${basename(dir)}/${file}` : file] = join(dir, file)
    }
  }
  const files = Object.keys(paths).sort()
  const hash = createHash('sha256').update(`solc ${solcVersion}\n`)
  const packages = new Set<string>()
  for (const file of files) {
    const content = readFileSync(paths[file])
    hash.update(`${file}\n`).update(content).update('\n')
    for (const [, name] of content.toString().matchAll(/import[^"']*["'](@[^/"']+\/[^/"']+)\//g)) packages.add(name)
  }
  for (const name of [...packages].sort()) {
    const { version } = JSON.parse(readFileSync(join(compiledContractsPath().root, 'node_modules', name, 'package.json'), 'utf8'))
    hash.update(`${name}@${version}\n`)
  }
  return { key: hash.digest('hex'), solcVersion, files, paths }
}
