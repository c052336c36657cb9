import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compiledContractsPath } from '../../artifacts/compiledContractsPath.ts'

/** The packages whose bytecode (or binary) ends up in the seeded state. */
const seededPackages = [
  '@uniswap/v2-core',
  '@uniswap/v3-core',
  '@uniswap/v4-core',
  '@pancakeswap/v3-core',
  '@cryptoalgebra/integral-core',
  '@cryptoalgebra/integral-base-plugin',
  '@foundry-rs/anvil-linux-amd64',
  'solc',
  'viem',
] as const

export type SeedStateKeyParameters = { seed: number }
export type SeedStateKeyReturnType = { key: string; files: number }

/**
 * The key a saved seeded state is valid for: sha256 over the seed, the versions of the packages
 * whose code is deployed, our contract sources, and every non-test TypeScript file of `src/devnet/`
 * (the seeding code and the helpers it calls), and scripts/install-vyper.sh (it pins the Curve
 * pool's compiler and source). Any change there re-seeds on the next start.
 *
 * @example
 * const { key } = seedStateKey({ seed: 8453 })
 * // → key: SHA-256 hex (the same until the seed, a package version, a contract or a src/devnet file changes); files: how many were hashed
 */
export function seedStateKey({ seed }: SeedStateKeyParameters): SeedStateKeyReturnType {
  const { root } = compiledContractsPath()
  const hash = createHash('sha256').update(`seed ${seed}\n`)
  for (const name of seededPackages) {
    // Read from disk: some packages do not export their package.json.
    const { version } = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'))
    hash.update(`${name}@${version}\n`)
  }
  const files = [
    // Every contract source, not only contracts/test: the router's bytecode is in the state too.
    ...listFiles({ dir: join(root, 'contracts'), keep: (f) => f.endsWith('.sol') }),
    ...listFiles({ dir: join(root, 'src', 'devnet'), keep: (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') }),
    // It pins the Vyper compiler and the source of Curve's NG pool the seed deploys.
    join(root, 'scripts', 'install-vyper.sh'),
  ]
  for (const file of files)
    hash
      .update(`${file.slice(root.length)}\n`)
      .update(readFileSync(file))
      .update('\n')
  return { key: hash.digest('hex'), files: files.length }
}

/** Files under `dir` (recursive), sorted, so the key does not depend on directory order. */
function listFiles({ dir, keep }: { dir: string; keep: (file: string) => boolean }): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(keep)
    .sort()
}
