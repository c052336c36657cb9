import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Abi, Hex } from 'viem'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'

/**
 * Curve's own StableSwap-NG pool (`CurveStableSwapNG.vy` v7.0.0, the implementation deployed NG
 * pools run), compiled with the compiler it names (Vyper 0.3.10) from the source Pygments' PyPI
 * source distribution ships, both installed by `scripts/install-vyper.sh` under `build/vyper/`.
 * Cached in `build/curve-stableswap-ng.json`, keyed by the source and the compiler version.
 *
 * @example
 * const { abi, bytecode } = loadCurveStableSwapNgArtifact()
 */
export function loadCurveStableSwapNgArtifact(): ContractArtifact {
  const { root } = compiledContractsPath()
  const dir = join(root, 'build', 'vyper')
  const vyper = join(dir, 'venv', 'bin', 'vyper')
  const sourceFile = join(dir, 'curvefi', 'CurveStableSwapNG.vy')
  // Idempotent: returns at once when the versions it names are installed.
  execFileSync('bash', [join(root, 'scripts', 'install-vyper.sh')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const source = readFileSync(sourceFile, 'utf8')
  const version = execFileSync(vyper, ['--version'], { encoding: 'utf8' }).trim()
  const key = createHash('sha256').update(version).update('\0').update(source).digest('hex')
  const outputFile = join(root, 'build', 'curve-stableswap-ng.json')
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
  mkdirSync(join(root, 'build'), { recursive: true })
  writeFileSync(outputFile, JSON.stringify({ key, vyper: version, artifact }))
  return artifact
}
