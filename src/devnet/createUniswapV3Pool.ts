import { type Address, getAddress } from 'viem'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type CreateUniswapV3PoolParameters = {
  devnet: Devnet
  factory: Address
  tokenA: Address
  tokenB: Address
  /** Fee tier in pips (100, 500, 3000, 10000). */
  fee: number
  sqrtPriceX96: bigint
}

export type CreateUniswapV3PoolReturnType = { pool: Address; token0: Address; token1: Address }

/**
 * Creates and initializes a V3 pool.
 *
 * @example
 * const { pool } = await createUniswapV3Pool({ devnet, factory, tokenA, tokenB, fee: 500, sqrtPriceX96: 2n ** 96n })
 * // → { pool, token0, token1 }: initialized at price 1 (2^96), fee 500
 */
export async function createUniswapV3Pool({
  devnet,
  factory,
  tokenA,
  tokenB,
  fee,
  sqrtPriceX96,
}: CreateUniswapV3PoolParameters): Promise<CreateUniswapV3PoolReturnType> {
  const factoryAbi = loadNpmArtifact({ name: 'UniswapV3Factory' }).abi
  await writeContractAndWait({ devnet, address: factory, abi: factoryAbi, functionName: 'createPool', args: [tokenA, tokenB, fee] })
  const pool = getAddress(
    (await devnet.publicClient.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'getPool',
      args: [tokenA, tokenB, fee],
    })) as Address,
  )
  const poolAbi = loadNpmArtifact({ name: 'UniswapV3Pool' }).abi
  await writeContractAndWait({ devnet, address: pool, abi: poolAbi, functionName: 'initialize', args: [sqrtPriceX96] })
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { pool, token0, token1 }
}
