import type { Address } from 'viem'
import { deployTestToken } from './deployTestToken.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import type { Devnet } from './startDevnet.ts'

/**
 * The embedded market's ten tokens as fresh `TestERC20`s (open mint) with their real decimals, by
 * symbol: what the family market deployers (`deployGyroECLPMarket`, `deployDodoV2Market`) take
 * in tests that need no seeded market.
 *
 * @example
 * const tokens = await deployMarketTestTokens({ devnet }) // → { WETH: { address, decimals: 18 }, USDC: { …, decimals: 6 }, … }
 */
export async function deployMarketTestTokens({
  devnet,
}: {
  devnet: Devnet
}): Promise<Record<string, { address: Address; decimals: number }>> {
  const tokens: Record<string, { address: Address; decimals: number }> = {}
  for (const t of baseMarketTokens)
    tokens[t.symbol] = {
      address: await deployTestToken({ devnet, name: t.name, symbol: t.symbol, decimals: t.decimals }),
      decimals: t.decimals,
    }
  return tokens
}
