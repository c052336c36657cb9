import { join } from 'node:path'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'
import { compileVyperArtifact } from './compileVyperArtifact.ts'
import { runInstallScript } from './runInstallScript.ts'

/**
 * Curve's tricrypto-ng AMM math contract (`CurveCryptoMathOptimized3.vy` v2.0.0: `get_y`,
 * `newton_D`, `get_p`, `wad_exp`, `cbrt`, `geometric_mean`, `reduction_coefficient`, what every
 * tricrypto-ng pool calls), as Vyper's own PyPI source distribution ships it adapted to Vyper 0.4
 * syntax, compiled with that Vyper (0.4.3); both installed by `scripts/install-vyper.sh`
 * under `build/vyper/`. Cached in `build/curve-crypto-math.json`.
 *
 * @example
 * const { abi, bytecode } = await loadCurveCryptoMathArtifact()
 */
export async function loadCurveCryptoMathArtifact(): Promise<ContractArtifact> {
  const { root } = compiledContractsPath()
  const dir = join(root, 'build', 'vyper')
  // Idempotent: returns at once when the versions it names are installed.
  await runInstallScript({ script: 'install-vyper.sh' })
  return compileVyperArtifact({
    vyper: join(dir, 'venv-0.4.3', 'bin', 'vyper'),
    sourceFile: join(dir, 'curvefi-0.4', 'CurveCryptoMathOptimized3.vy'),
    outputFile: join(root, 'build', 'curve-crypto-math.json'),
  })
}
