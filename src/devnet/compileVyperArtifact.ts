import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
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
 * const { abi, bytecode } = compileVyperArtifact({ vyper, sourceFile, outputFile: 'build/pool.json' })
 */
export function compileVyperArtifact({ vyper, sourceFile, outputFile }: CompileVyperArtifactParameters): ContractArtifact {
  const source = readFileSync(sourceFile, 'utf8')
  const version = execFileSync(vyper, ['--version'], { encoding: 'utf8' }).trim()
  const key = createHash('sha256').update(version).update('\0').update(source).digest('hex')
  if (existsSync(outputFile)) {
    const cached = JSON.parse(readFileSync(outputFile, 'utf8'))
    if (cached.key === key) return cached.artifact
  }
  const [abi, bytecode, deployedBytecode] = execFileSync(vyper, ['-f', 'abi,bytecode,bytecode_runtime', sourceFile], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
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
