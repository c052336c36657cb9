import type { Address } from 'viem'
import { deployUniswapV3 } from './deployUniswapV3.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

/**
 * AlienBase V3's extra fee tiers, in pips, with the tick spacings we give them. AlienBase runs
 * Uniswap V3 bytecode (same init-code hash) with tiers 10000/3000/750/200; no source we have states
 * its spacings for 750 and 200, so they follow Uniswap's own ratio of spacing to fee (500 → 10,
 * 3000 → 60: spacing = fee / 50): 750 → 15 and 200 → 4.
 */
export const alienBaseV3ExtraFeeTiers = [
  { fee: 750, tickSpacing: 15 },
  { fee: 200, tickSpacing: 4 },
] as const

export type DeployAlienBaseV3Parameters = { devnet: Devnet }
export type DeployAlienBaseV3ReturnType = { factory: Address }

/**
 * Deploys AlienBase V3: a second published `UniswapV3Factory` (so pools share the canonical
 * 0xe34f… init-code hash but live under their own factory) with the 750/15 and 200/4 tiers enabled
 * on top of 100/500/3000/10000.
 *
 * @example
 * const { factory } = await deployAlienBaseV3({ devnet })
 * // → { factory }: a UniswapV3Factory with 750/15 and 200/4 enabled too
 */
export async function deployAlienBaseV3({ devnet }: DeployAlienBaseV3Parameters): Promise<DeployAlienBaseV3ReturnType> {
  const { factory } = await deployUniswapV3({ devnet })
  const { abi } = loadNpmArtifact({ name: 'UniswapV3Factory' })
  for (const { fee, tickSpacing } of alienBaseV3ExtraFeeTiers) {
    await writeContractAndWait({ devnet, address: factory, abi, functionName: 'enableFeeAmount', args: [fee, tickSpacing] })
  }
  return { factory }
}
