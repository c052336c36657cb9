import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployTestTokenParameters = { devnet: Devnet; name: string; symbol: string; decimals: number }

/**
 * Deploys our `TestERC20` (open mint, EIP-2612 permit) with the given decimals.
 *
 * @example
 * const usdc = await deployTestToken({ devnet, name: 'USD Coin', symbol: 'USDC', decimals: 6 })
 * // → the token's address: 'USDC', 6 decimals, anyone may mint
 */
export async function deployTestToken({ devnet, name, symbol, decimals }: DeployTestTokenParameters): Promise<Address> {
  return deployContractAndWait({ devnet, artifact: devnet.artifacts.TestERC20, args: [name, symbol, decimals] })
}
