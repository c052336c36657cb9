/**
 * Compiles the test contracts (`contracts/test/*.sol`) with solc-js (Standard JSON, optimizer on, evmVersion cancun) into
 * `build/contracts.json`, keyed on the sources' hash and the solc version; a fresh cache is reused.
 * The swap router (`contracts/router/*.sol`) is a separate compilation into `build/router.json`
 * with its own key, and so is the tick lens (`contracts/lens/*.sol` into `build/lens.json`), so the test contracts' cache (and `loadContractArtifacts`) stay as they were.
 * Each protocol's stand-in contracts (`contracts/<protocol>/*.sol`, see `standInProtocols`) are one
 * compilation each into `build/<protocol>.json`, with the shared `contracts/common/` sources and the
 * `@uniswap/v4-core` libraries they import from node_modules.
 *
 *   node --import tsx scripts/compile-contracts.ts [--force]
 *
 * solc is required here only: it installs a process-wide handler that rethrows unhandled rejections.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { compiledContractsPath } from '../src/artifacts/compiledContractsPath.ts'
import { compileTargets } from '../src/artifacts/compileTargets.ts'
import { hashContractSources } from '../src/artifacts/hashContractSources.ts'
import { standInCompileTarget, standInProtocols } from '../src/devnet/standInCompileTarget.ts'

export type CompileContractsParameters = {
  force?: boolean
  /** Directory of the sources (not recursive); default `contracts/`. */
  contractsDir?: string
  /** Cache file; default `build/contracts.json`. */
  outputFile?: string
  /** Shared source directories imported by relative path (`../common/X.sol`); see `hashContractSources`. */
  libraryDirs?: string[]
  /** Compile through the IR pipeline (the stand-ins: v4-core's Pool library needs it, as v4-core itself is built). */
  viaIR?: boolean
}
export type CompileContractsReturnType = { outputFile: string; cached: boolean; contracts: string[] }

/**
 * Compiles the project's Solidity test contracts unless the cache matches.
 *
 * @example
 * const { outputFile } = compileContracts({})
 */
export function compileContracts({
  force = false,
  contractsDir = compiledContractsPath().contractsDir,
  outputFile = compiledContractsPath().outputFile,
  libraryDirs,
  viaIR = false,
}: CompileContractsParameters): CompileContractsReturnType {
  const { key, solcVersion, files, paths } = hashContractSources({ contractsDir, libraryDirs })
  if (!force && existsSync(outputFile)) {
    const cached = JSON.parse(readFileSync(outputFile, 'utf8'))
    if (cached.key === key) return { outputFile, cached: true, contracts: Object.keys(cached.contracts) }
  }
  const require = createRequire(import.meta.url)
  const solc = require('solc')
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(paths[f], 'utf8') }]))
  const { root } = compiledContractsPath()
  // Package imports come from node_modules; anything else is a source under contracts/.
  const findImports = (path: string) => {
    const file = path.startsWith('@') ? join(root, 'node_modules', path) : join(root, 'contracts', path)
    return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${path}` }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      viaIR,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`)
  }
  const contracts: Record<string, { abi: unknown; bytecode: string; deployedBytecode: string }> = {}
  for (const [file, byName] of Object.entries<Record<string, any>>(output.contracts)) {
    for (const [name, c] of Object.entries<any>(byName)) {
      if (contracts[name]) throw new Error(`duplicate contract name ${name} (${file})`)
      contracts[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      }
    }
  }
  mkdirSync(dirname(outputFile), { recursive: true })
  writeFileSync(outputFile, JSON.stringify({ key, solcVersion: solc.version(), contracts }))
  return { outputFile, cached: false, contracts: Object.keys(contracts) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { root } = compiledContractsPath()
  const force = process.argv.includes('--force')
  const targets: CompileContractsParameters[] = [
    {},
    compileTargets().router,
    compileTargets().lens,
    ...standInProtocols.map((protocol) => standInCompileTarget({ protocol })),
    compileTargets().launchpad,
  ]
  for (const target of targets) {
    if (target.contractsDir && !existsSync(target.contractsDir)) continue
    const started = Date.now()
    const result = compileContracts({ ...target, force })
    console.log(
      `${result.cached ? 'up to date' : 'compiled'}: ${result.contracts.join(', ')} -> ${result.outputFile} (${Date.now() - started} ms)`,
    )
  }
}
