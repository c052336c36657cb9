import { type Address, getAddress } from 'viem'
import { createUniswapV3Pool } from '../../src/devnet/createUniswapV3Pool.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import type { RouterMarket } from './createRouterMarket.ts'

const MAX_UINT = 2n ** 256n - 1n

/**
 * Deploys one of the project's misbehaving test tokens (a mintable ERC-20 doing something odd) with
 * 10³⁰ minted to the dev account, approved to the router and the harness, and gives it a Uniswap V3
 * pool against A on the market's factory (fee 3000, price 1, 10²⁴ full-range liquidity), funded
 * while the token still behaves.
 *
 * @example
 * const { token, pool } = await deployTokenWithPoolAgainstA({ devnet, market, artifact: devnet.artifacts.QuirkyToken })
 * // token: the checksummed token address; pool: its V3 pool against market.tokens.a, ready to trade
 */
export async function deployTokenWithPoolAgainstA({
  devnet,
  market,
  artifact,
}: {
  devnet: Devnet
  market: RouterMarket
  artifact: Devnet['artifacts']['QuirkyToken'] | Devnet['artifacts']['ReentrantToken']
}): Promise<{ token: Address; pool: Address }> {
  const abi = artifact.abi
  const token = getAddress(await deployContractAndWait({ devnet, artifact }))
  await writeContractAndWait({ devnet, address: token, abi, functionName: 'mint', args: [devnet.account, 10n ** 30n] })
  for (const spender of [market.router, market.harness])
    await writeContractAndWait({ devnet, address: token, abi, functionName: 'approve', args: [spender, MAX_UINT] })
  const { pool } = await createUniswapV3Pool({
    devnet,
    factory: market.v3.factory,
    tokenA: token,
    tokenB: market.tokens.a,
    fee: 3000,
    sqrtPriceX96: 2n ** 96n,
  })
  await writeContractAndWait({
    devnet,
    address: market.harness,
    abi: devnet.artifacts.PoolHarness.abi,
    functionName: 'mintV3',
    args: [pool, devnet.account, -887220, 887220, 10n ** 24n, devnet.account],
  })
  return { token, pool }
}
