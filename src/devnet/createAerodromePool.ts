import { type Address, getAddress } from 'viem'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type CreateAerodromePoolParameters = { devnet: Devnet; factory: Address; tokenA: Address; tokenB: Address; stable: boolean }
export type CreateAerodromePoolReturnType = { pool: Address; token0: Address; token1: Address }

/**
 * Creates an Aerodrome pool (an EIP-1167 clone; empty until its first `mint`).
 *
 * @example
 * const { pool } = await createAerodromePool({ devnet, factory, tokenA, tokenB, stable: true })
 * // → { pool, token0, token1 }: a stable pool, empty until its first mint
 */
export async function createAerodromePool({
  devnet,
  factory,
  tokenA,
  tokenB,
  stable,
}: CreateAerodromePoolParameters): Promise<CreateAerodromePoolReturnType> {
  const { abi } = loadStandInArtifacts({ protocol: 'aerodrome' }).PoolFactory
  await writeContractAndWait({ devnet, address: factory, abi, functionName: 'createPool', args: [tokenA, tokenB, stable] })
  const pool = (await devnet.publicClient.readContract({
    address: factory,
    abi,
    functionName: 'getPool',
    args: [tokenA, tokenB, stable],
  })) as Address
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { pool: getAddress(pool), token0, token1 }
}
