import { type Address, getAddress } from 'viem'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type CreateSlipstreamPoolParameters = {
  devnet: Devnet
  factory: Address
  tokenA: Address
  tokenB: Address
  /** An enabled spacing: 1, 50, 100, 200 or 2000. */
  tickSpacing: number
  sqrtPriceX96: bigint
}

export type CreateSlipstreamPoolReturnType = { pool: Address; token0: Address; token1: Address }

/**
 * Creates a Slipstream pool (an EIP-1167 clone, initialized at `sqrtPriceX96` in the same call).
 *
 * @example
 * const { pool } = await createSlipstreamPool({ devnet, factory, tokenA, tokenB, tickSpacing: 100, sqrtPriceX96: 2n ** 96n })
 * // → { pool, token0, token1 }: a clone initialized at price 1 (2^96), tick spacing 100
 */
export async function createSlipstreamPool({
  devnet,
  factory,
  tokenA,
  tokenB,
  tickSpacing,
  sqrtPriceX96,
}: CreateSlipstreamPoolParameters): Promise<CreateSlipstreamPoolReturnType> {
  const { abi } = loadStandInArtifacts({ protocol: 'slipstream' }).CLFactory
  await writeContractAndWait({
    devnet,
    address: factory,
    abi,
    functionName: 'createPool',
    args: [tokenA, tokenB, tickSpacing, sqrtPriceX96],
  })
  const pool = (await devnet.publicClient.readContract({
    address: factory,
    abi,
    functionName: 'getPool',
    args: [tokenA, tokenB, tickSpacing],
  })) as Address
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { pool: getAddress(pool), token0, token1 }
}
