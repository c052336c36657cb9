import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Abi, Hex } from 'viem'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'

/**
 * Curve's own StableSwap-NG pool (`CurveStableSwapNG.vy`, v7.0.0), compiled with Vyper 0.4.3 from
 * the source that Vyper's PyPI source distribution ships (its test suite's port of
 * curvefi/stableswap-ng to Vyper 0.4), both installed by `scripts/install-vyper.sh` under
 * `build/vyper/`. Cached in `build/curve-stableswap-ng.json`, keyed by the patched source and the
 * compiler version.
 *
 * The port changed one thing an integrator sees: `exchange` and `exchange_received` take `uint128`
 * indexes and `TokenExchange` logs them as `uint128`, where every deployed NG pool has `int128`
 * (other selectors, another event topic). `ABI_PATCHES` puts the deployed pools' `int128` back
 * (a negative index reverts, as it does on chain); the swap math and storage are untouched.
 *
 * @example
 * const { abi, bytecode } = loadCurveStableSwapNgArtifact()
 */
export function loadCurveStableSwapNgArtifact(): ContractArtifact {
  const { root } = compiledContractsPath()
  const dir = join(root, 'build', 'vyper')
  const vyper = join(dir, 'venv', 'bin', 'vyper')
  const sourceFile = join(dir, 'curvefi', 'CurveStableSwapNG.vy')
  if (!existsSync(vyper) || !existsSync(sourceFile))
    execFileSync('bash', [join(root, 'scripts', 'install-vyper.sh')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const source = patchSource(readFileSync(sourceFile, 'utf8'))
  const version = execFileSync(vyper, ['--version'], { encoding: 'utf8' }).trim()
  const key = createHash('sha256').update(version).update('\0').update(source).digest('hex')
  const outputFile = join(root, 'build', 'curve-stableswap-ng.json')
  if (existsSync(outputFile)) {
    const cached = JSON.parse(readFileSync(outputFile, 'utf8'))
    if (cached.key === key) return cached.artifact
  }
  const patchedFile = join(dir, 'CurveStableSwapNG.patched.vy')
  writeFileSync(patchedFile, source)
  const [abi, bytecode, deployedBytecode] = execFileSync(vyper, ['-f', 'abi,bytecode,bytecode_runtime', patchedFile], {
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

/** Each replaces exactly one passage of the port with the deployed pools' `int128` interface. */
const ABI_PATCHES: [from: string, to: string][] = [
  ['    sold_id: uint128\n', '    sold_id: int128\n'],
  ['    bought_id: uint128\n', '    bought_id: int128\n'],
  ['def exchange(\n    i: uint128,\n    j: uint128,', 'def exchange(\n    i: int128,\n    j: int128,'],
  ['def exchange_received(\n    i: uint128,\n    j: uint128,', 'def exchange_received(\n    i: int128,\n    j: int128,'],
  [
    '    return self._exchange(\n        msg.sender,\n        i,\n        j,\n        _dx,\n        _min_dy,\n        _receiver,\n        False\n    )',
    '    return self._exchange(\n        msg.sender,\n        convert(i, uint128),\n        convert(j, uint128),\n        _dx,\n        _min_dy,\n        _receiver,\n        False\n    )',
  ],
  [
    '    return self._exchange(\n        msg.sender,\n        i,\n        j,\n        _dx,\n        _min_dy,\n        _receiver,\n        True,',
    '    return self._exchange(\n        msg.sender,\n        convert(i, uint128),\n        convert(j, uint128),\n        _dx,\n        _min_dy,\n        _receiver,\n        True,',
  ],
  [
    'log TokenExchange(buyer=msg.sender, sold_id=i, tokens_sold=_dx, bought_id=j, tokens_bought=dy)',
    'log TokenExchange(buyer=msg.sender, sold_id=convert(i, int128), tokens_sold=_dx, bought_id=convert(j, int128), tokens_bought=dy)',
  ],
]

function patchSource(source: string): string {
  let patched = source
  for (const [from, to] of ABI_PATCHES) {
    const count = patched.split(from).length - 1
    if (count !== 1) throw new Error(`CurveStableSwapNG.vy: expected one ${JSON.stringify(from.slice(0, 60))}, found ${count}`)
    patched = patched.replace(from, to)
  }
  return patched
}
