import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import type { Abi, Hex } from 'viem'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'

export type CompileVyperArtifactParameters = {
  /** The `vyper` executable (a virtual environment's, installed by one of `scripts/install-vyper*.sh`). */
  vyper: string
  /** The `.vy` source. */
  sourceFile: string
  /** The cache file, keyed by the source and the compiler's version. */
  outputFile: string
}

/**
 * Compiles one Vyper source into `{ abi, bytecode, deployedBytecode }`, or returns the cached
 * artifact when neither the source nor the compiler changed.
 *
 * @example
 * const { abi, bytecode } = await compileVyperArtifact({ vyper, sourceFile, outputFile: 'build/pool.json' })
 */
export async function compileVyperArtifact({ vyper, sourceFile, outputFile }: CompileVyperArtifactParameters): Promise<ContractArtifact> {
  const source = readFileSync(sourceFile, 'utf8')
  // In child processes without blocking: a compile takes seconds, and chains seeding in this
  // process meanwhile must keep their RPC answers flowing (see runInstallScript).
  const version = (await run(vyper, ['--version'], { encoding: 'utf8' })).stdout.trim()
  const key = createHash('sha256').update(version).update('\0').update(source).digest('hex')
  if (existsSync(outputFile)) {
    const cached = JSON.parse(readFileSync(outputFile, 'utf8'))
    if (cached.key === key) return cached.artifact
  }
  const [abi, bytecode, deployedBytecode] = (
    await run(vyper, ['-f', 'abi,bytecode,bytecode_runtime', sourceFile], { encoding: 'utf8', maxBuffer: 1 << 26 })
  ).stdout
    .trim()
    .split('\n')
  const artifact: ContractArtifact = {
    abi: JSON.parse(abi) as Abi,
    bytecode: bytecode.trim() as Hex,
    deployedBytecode: deployedBytecode.trim() as Hex,
  }
  mkdirSync(dirname(outputFile), { recursive: true })
  writeFileSync(outputFile, JSON.stringify({ key, vyper: version, artifact }))
  return artifact
}

const run = promisify(execFile)
