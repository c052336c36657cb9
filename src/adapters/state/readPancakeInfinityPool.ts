import { type Address, type Hex, type PublicClient, parseAbi, zeroAddress } from 'viem'
import type { PoolInput } from '../../../bindings/types.ts'
import { type PancakeInfinityPoolKey, pancakeInfinityTickSpacing } from '../poolKeys/pancakeInfinityPoolKey.ts'
import { PoolUnusableError } from '../errors.ts'
import { scanTickBitmap } from './scanTickBitmap.ts'

const managerAbi = parseAbi([
  'function getSlot0(bytes32 id) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getLiquidity(bytes32 id) view returns (uint128)',
  'function poolIdToPoolKey(bytes32 id) view returns (address currency0, address currency1, address hooks, address poolManager, uint24 fee, bytes32 parameters)',
  'function vault() view returns (address)',
])

export type ReadPancakeInfinityPoolParameters = {
  client: PublicClient
  poolManager: Address
  poolId: Hex
  /** Every call is pinned to this block. */
  blockNumber: bigint
}

export type ReadPancakeInfinityPoolReturnType = {
  input: PoolInput
  key: PancakeInfinityPoolKey
  /** The manager's Vault: it holds every pool's tokens (the manager only accounts). */
  vault: Address
}

/**
 * Reads a PancakeSwap Infinity CL pool from its pool manager's getters at one block into the
 * solver's `concentrated` input: `getSlot0` (price, tick, the packed protocol fee, the LP fee),
 * `getLiquidity`, the key (`poolIdToPoolKey`: its `parameters` hold the spacing), the manager's
 * `vault()` (which holds the tokens: what token screening probes), and the ticks
 * through the lens (`getPoolBitmapInfo` / `getPoolTickInfo`). Only hookless, static-fee pools are
 * priced: a hook may change any swap's fee or amounts.
 *
 * @example
 * const { input, key } = await readPancakeInfinityPool({ client, poolManager, poolId, blockNumber })
 * // → input: a concentrated PoolInput (hookless, static fee); key: its PoolKey from poolIdToPoolKey; vault: 0x…
 */
export async function readPancakeInfinityPool({
  client,
  poolManager,
  poolId,
  blockNumber,
}: ReadPancakeInfinityPoolParameters): Promise<ReadPancakeInfinityPoolReturnType> {
  const id = poolId.toLowerCase() as Hex
  const [slot0, liquidity, keyFields, vault] = (await client.multicall({
    allowFailure: false,
    blockNumber,
    contracts: [
      { address: poolManager, abi: managerAbi, functionName: 'getSlot0', args: [id] },
      { address: poolManager, abi: managerAbi, functionName: 'getLiquidity', args: [id] },
      { address: poolManager, abi: managerAbi, functionName: 'poolIdToPoolKey', args: [id] },
      { address: poolManager, abi: managerAbi, functionName: 'vault' },
    ],
  })) as [readonly [bigint, number, number, number], bigint, readonly [Address, Address, Address, Address, number, Hex], Address]
  const [currency0, currency1, hooks, keyManager, fee, parameters] = keyFields
  const unusable = (reason: string) => new PoolUnusableError({ poolId: id, dex: 'PANCAKE_INFINITY_CL', reason })
  if (slot0[0] === 0n) throw unusable('not initialized')
  if (hooks !== zeroAddress || (BigInt(parameters) & 0xffffn) !== 0n)
    throw unusable(`hooks ${hooks}: a hook can change fees and amounts, not priced exactly`)
  const key: PancakeInfinityPoolKey = { currency0, currency1, hooks, poolManager: keyManager, fee, parameters }
  const tickSpacing = pancakeInfinityTickSpacing({ parameters })
  const { ticks } = await scanTickBitmap({ client, source: { kind: 'infinityCl', poolManager, poolId: id }, tickSpacing, blockNumber })
  const [sqrtPriceX96, tick, protocolFee, lpFee] = slot0
  const input: PoolInput = {
    id,
    dex: 'PANCAKE_INFINITY_CL',
    tokens: [currency0.toLowerCase() as Address, currency1.toLowerCase() as Address],
    state: {
      model: 'concentrated',
      sqrtPriceX96: sqrtPriceX96.toString(),
      tick,
      liquidity: liquidity.toString(),
      tickSpacing,
      feePips: lpFee,
      protocolFee,
      ticks: ticks.map(([t, net]) => [t, net.toString()]),
    },
  }
  return { input, key, vault: vault.toLowerCase() as Address }
}
