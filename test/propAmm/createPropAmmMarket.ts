import { type Address, getAddress } from 'viem'
import { createUniswapV3Pool } from '../../src/devnet/createUniswapV3Pool.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { deployUniswapV3 } from '../../src/devnet/deployUniswapV3.ts'
import { deployPropAmms } from '../../src/devnet/propAmm/deployPropAmms.ts'
import type { PropAmmDescription } from '../../src/devnet/propAmm/PropAmmDescription.ts'
import { sqrtPriceX96FromRawPrice } from '../../src/devnet/seed/sqrtPriceX96FromRawPrice.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'

export type PropAmmMarket = {
  tokens: Record<'WETH' | 'USDC' | 'cbBTC', { address: Address; decimals: number }>
  propAmms: PropAmmDescription
  /** The address the venues are deployed to serve (LUNARBASE whitelists it): a stand-in for the swap router. */
  executor: Address
}

/**
 * The seeded market's prop AMMs on a bare devnet (no full seed): WETH9, USDC and cbBTC, one UNIV3
 * pool per pair at 3,000 and 60,000 USDC (price only: the keeper reads `slot0`), and
 * `deployPropAmms` serving `executor`.
 */
export async function createPropAmmMarket({ devnet, executor }: { devnet: Devnet; executor: Address }): Promise<PropAmmMarket> {
  const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  const usdc = await deployTestToken({ devnet, name: 'USD Coin', symbol: 'USDC', decimals: 6 })
  const cbbtc = await deployTestToken({ devnet, name: 'Coinbase Wrapped BTC', symbol: 'cbBTC', decimals: 8 })
  const tokens = {
    WETH: { address: getAddress(weth), decimals: 18 },
    USDC: { address: getAddress(usdc), decimals: 6 },
    cbBTC: { address: getAddress(cbbtc), decimals: 8 },
  }
  const { factory } = await deployUniswapV3({ devnet })
  const reference = async (base: 'WETH' | 'cbBTC', usd: number) => {
    const [b, q] = [tokens[base], tokens.USDC]
    // token1 per token0, raw.
    const perBase = (usd * 10 ** q.decimals) / 10 ** b.decimals
    const price = BigInt(b.address) < BigInt(q.address) ? perBase : 1 / perBase
    const { pool } = await createUniswapV3Pool({
      devnet,
      factory,
      tokenA: b.address,
      tokenB: q.address,
      fee: 500,
      sqrtPriceX96: sqrtPriceX96FromRawPrice({ price }),
    })
    return pool
  }
  const references = { WETH: await reference('WETH', 3000), cbBTC: await reference('cbBTC', 60_000) }
  const propAmms = await deployPropAmms({
    devnet,
    tokens,
    priceUsd: { WETH: 3000, USDC: 1, cbBTC: 60_000 },
    references,
    router: executor,
  })
  return { tokens, propAmms, executor }
}
