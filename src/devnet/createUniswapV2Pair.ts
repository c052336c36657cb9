import { type Address, getAddress } from 'viem'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type CreateUniswapV2PairParameters = { devnet: Devnet; factory: Address; tokenA: Address; tokenB: Address }
export type CreateUniswapV2PairReturnType = { pair: Address; token0: Address; token1: Address }

/**
 * Creates a pair on a V2 factory and returns its address with its token order.
 *
 * @example
 * const { pair, token0 } = await createUniswapV2Pair({ devnet, factory, tokenA, tokenB })
 * // → pair: its address; token0 the lower of tokenA and tokenB
 */
export async function createUniswapV2Pair({
  devnet,
  factory,
  tokenA,
  tokenB,
}: CreateUniswapV2PairParameters): Promise<CreateUniswapV2PairReturnType> {
  const { abi } = loadNpmArtifact({ name: 'UniswapV2Factory' })
  await writeContractAndWait({ devnet, address: factory, abi, functionName: 'createPair', args: [tokenA, tokenB] })
  const pair = (await devnet.publicClient.readContract({
    address: factory,
    abi,
    functionName: 'getPair',
    args: [tokenA, tokenB],
  })) as Address
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { pair: getAddress(pair), token0, token1 }
}
