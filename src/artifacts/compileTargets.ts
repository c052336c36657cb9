import { join } from 'node:path'
import { compiledContractsPath } from './compiledContractsPath.ts'

/** One solc compilation: its sources (not recursive), its cache file, the shared folders it imports. */
export type CompileTarget = { contractsDir: string; outputFile: string; libraryDirs?: string[] }

/**
 * The project's own compilations, each named once for `scripts/compile-contracts.ts` and for the
 * loaders: the router and the launchpad import the shared `contracts/common/` (the reentrancy
 * lock), the tick lens imports nothing. The test doubles (`contracts/test/`) are
 * `compiledContractsPath()`'s default; the protocols' stand-ins are `standInCompileTarget`.
 *
 * @example
 * const { SwapRouter } = loadCompiledArtifacts(compileTargets().router)
 * // compileTargets().router → { contractsDir: '<root>/contracts/router', outputFile: '<root>/build/router.json', libraryDirs: [common] }
 */
export function compileTargets(): Record<'router' | 'lens' | 'launchpad', CompileTarget> {
  const { root } = compiledContractsPath()
  const common = [join(root, 'contracts', 'common')]
  return {
    router: { contractsDir: join(root, 'contracts', 'router'), outputFile: join(root, 'build', 'router.json'), libraryDirs: common },
    lens: { contractsDir: join(root, 'contracts', 'lens'), outputFile: join(root, 'build', 'lens.json') },
    launchpad: {
      contractsDir: join(root, 'contracts', 'launchpad'),
      outputFile: join(root, 'build', 'launchpad.json'),
      libraryDirs: common,
    },
  }
}
