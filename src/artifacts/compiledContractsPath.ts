import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Absolute paths of the repository, of the test contracts' sources (`contracts/test/`) and of their compile cache. */
export type CompiledContractsPathReturnType = { root: string; contractsDir: string; outputFile: string }

/**
 * Where `scripts/compile-contracts.ts` reads sources and writes its cache (`build/contracts.json`).
 *
 * @example
 * const { outputFile } = compiledContractsPath()
 * // → '<repo root>/build/contracts.json' (contractsDir: '<root>/contracts/test', root)
 */
export function compiledContractsPath(): CompiledContractsPathReturnType {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
  return { root, contractsDir: join(root, 'contracts', 'test'), outputFile: join(root, 'build', 'contracts.json') }
}
