import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type Hex, pad, type TestClient } from 'viem'
import { GAS_PRICE_ORACLE_ADDRESS, L1_BLOCK_ADDRESS } from './gasPriceOracle.ts'

/** The package (Optimism's own build, on npm) whose deployed bytecode the predeploys get. */
const PACKAGE = '@eth-optimism/contracts-bedrock'

function deployedBytecode(contract: 'GasPriceOracle' | 'L1Block'): Hex {
  const root = dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`))
  const artifact = JSON.parse(readFileSync(join(root, 'forge-artifacts', `${contract}.sol`, `${contract}.json`), 'utf8'))
  return artifact.deployedBytecode.object as Hex
}

/**
 * Puts Optimism's own `GasPriceOracle` (v1.3.0, Fjord) and `L1Block` bytecode, from
 * `@eth-optimism/contracts-bedrock`, at their predeploy addresses on a local chain, and switches
 * the oracle to Fjord (`isEcotone` and `isFjord`, both in its slot 0, as the upgrade transactions
 * leave them). The fee parameters start at zero: `setL1FeeParameters` writes them the way the
 * chain does. No block is mined.
 *
 * @example
 * await installOpStackFeePredeploys({ testClient })
 * // the chain now has L1Block and the GasPriceOracle (Fjord) at their predeploy addresses, fee parameters 0
 */
export async function installOpStackFeePredeploys({ testClient }: { testClient: TestClient }): Promise<void> {
  await testClient.setCode({ address: L1_BLOCK_ADDRESS, bytecode: deployedBytecode('L1Block') })
  await testClient.setCode({ address: GAS_PRICE_ORACLE_ADDRESS, bytecode: deployedBytecode('GasPriceOracle') })
  // Storage layout (the artifact's storageLayout): isEcotone at slot 0 offset 0, isFjord at offset 1.
  await testClient.setStorageAt({ address: GAS_PRICE_ORACLE_ADDRESS, index: pad('0x0', { size: 32 }), value: pad('0x0101', { size: 32 }) })
}
