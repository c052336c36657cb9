import { type Address, getAddress, parseAbi, zeroAddress } from 'viem'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const factoryReadAbi = parseAbi([
  'function defaultPluginFactory() view returns (address)',
  'function defaultFee() view returns (uint16)',
  'function defaultTickspacing() view returns (int24)',
])

export type CreateAlgebraPoolParameters = {
  devnet: Devnet
  factory: Address
  tokenA: Address
  tokenB: Address
  sqrtPriceX96: bigint
  tickSpacing: number
  /** Static fee in pips for a plugin-less pool (the plugin sets it otherwise); at most 50000. */
  fee: number
  /** Attach a plugin from this factory (e.g. BasePluginV1Factory); absent: no plugin. */
  pluginFactory?: Address
}

export type CreateAlgebraPoolReturnType = { pool: Address; token0: Address; token1: Address }

/**
 * Creates and initializes an Algebra Integral pool. The factory's defaults are set first (plugin
 * factory, fee, tick spacing) because `createPool` and `initialize` copy them into the pool.
 *
 * @example
 * const { pool } = await createAlgebraPool({ devnet, factory, tokenA, tokenB, sqrtPriceX96, tickSpacing: 60, fee: 500 })
 * // → { pool, token0, token1 }: the pool initialized at sqrtPriceX96, fee 500, tick spacing 60
 */
export async function createAlgebraPool({
  devnet,
  factory,
  tokenA,
  tokenB,
  sqrtPriceX96,
  tickSpacing,
  fee,
  pluginFactory,
}: CreateAlgebraPoolParameters): Promise<CreateAlgebraPoolReturnType> {
  const abi = loadNpmArtifact({ name: 'AlgebraFactory' }).abi
  const call = (functionName: string, args: readonly unknown[]) =>
    writeContractAndWait({ devnet, address: factory, abi, functionName, args })
  // The setters refuse a value equal to the current one, so only change what differs.
  const [currentPluginFactory, currentFee, currentTickSpacing] = await devnet.publicClient.multicall({
    allowFailure: false,
    contracts: [
      { address: factory, abi: factoryReadAbi, functionName: 'defaultPluginFactory' },
      { address: factory, abi: factoryReadAbi, functionName: 'defaultFee' },
      { address: factory, abi: factoryReadAbi, functionName: 'defaultTickspacing' },
    ],
  })
  const wantedPluginFactory = pluginFactory ?? zeroAddress
  if (currentPluginFactory.toLowerCase() !== wantedPluginFactory.toLowerCase()) {
    await call('setDefaultPluginFactory', [wantedPluginFactory])
  }
  if (currentFee !== fee) await call('setDefaultFee', [fee])
  if (currentTickSpacing !== tickSpacing) await call('setDefaultTickspacing', [tickSpacing])
  await call('createPool', [tokenA, tokenB, '0x'])
  const pool = getAddress(
    (await devnet.publicClient.readContract({ address: factory, abi, functionName: 'poolByPair', args: [tokenA, tokenB] })) as Address,
  )
  await writeContractAndWait({
    devnet,
    address: pool,
    abi: loadNpmArtifact({ name: 'AlgebraPool' }).abi,
    functionName: 'initialize',
    args: [sqrtPriceX96],
  })
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return { pool, token0, token1 }
}
