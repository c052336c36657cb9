import { type Address, type Hex, hexToBigInt, numberToHex, parseAbi, type PublicClient } from 'viem'
import type { DexId, PoolInput } from '../../../bindings/types.ts'
import { uniswapV4PoolId } from '../poolKeys/uniswapV4PoolId.ts'
import type { UniswapV4PoolKey } from '../poolKeys/uniswapV4PoolKey.ts'
import { uniswapV4StateSlot } from '../poolKeys/uniswapV4StateSlot.ts'
import { PoolUnusableError } from '../errors.ts'
import { scanTickBitmap } from './scanTickBitmap.ts'

const extsloadAbi = parseAbi(['function extsload(bytes32[] slots) view returns (bytes32[])'])

export type ReadUniswapV4PoolParameters = {
  client: PublicClient
  poolManager: Address
  key: UniswapV4PoolKey
  dex?: DexId
  blockNumber?: bigint
}

const signed = (value: bigint, bits: number) => BigInt.asIntN(bits, value)

/**
 * Reads a V4 pool from the PoolManager's storage with `extsload`, at one block, into the solver's
 * `concentrated` input: slot0 (sqrtPriceX96 | tick << 160 | protocolFee << 184 | lpFee << 208),
 * liquidity (state + 3); the tick bitmap (state + 5, int16 keys) and each initialized tick's
 * liquidityNet (high 128 bits of the first word of `ticks[t]`, state + 4) through the tick lens
 * (`scanTickBitmap`: scanned inside the EVM, a few eth_calls per pool).
 *
 * @example
 * const input = await readUniswapV4Pool({ client, poolManager, key, blockNumber })
 * // → { id: poolId, dex: 'UNIV4', tokens, state: { model: 'concentrated', sqrtPriceX96, tick, liquidity, ticks, … } }
 */
export async function readUniswapV4Pool({
  client,
  poolManager,
  key,
  dex = 'UNIV4',
  blockNumber,
}: ReadUniswapV4PoolParameters): Promise<PoolInput> {
  const block = blockNumber ?? (await client.getBlockNumber({ cacheTime: 0 }))
  const load = async (slots: Hex[]): Promise<bigint[]> => {
    if (slots.length === 0) return []
    const words = await client.readContract({
      address: poolManager,
      abi: extsloadAbi,
      functionName: 'extsload',
      args: [slots],
      blockNumber: block,
    })
    return words.map((w) => hexToBigInt(w))
  }
  const poolId = uniswapV4PoolId({ key })
  const stateSlot = uniswapV4StateSlot({ poolId })
  // The spacing is in the key, so the bitmap scan need not wait for slot0.
  const [[slot0, liquidity], { ticks }] = await Promise.all([
    load([numberToHex(stateSlot, { size: 32 }), numberToHex(stateSlot + 3n, { size: 32 })]),
    scanTickBitmap({ client, source: { kind: 'v4', poolManager, stateSlot }, tickSpacing: key.tickSpacing, blockNumber: block }),
  ])
  if (slot0 === 0n) throw new PoolUnusableError({ poolId, dex, reason: 'not initialized' })
  const sqrtPriceX96 = slot0 & ((1n << 160n) - 1n)
  const tick = Number(signed((slot0 >> 160n) & 0xffffffn, 24))
  const protocolFee = Number((slot0 >> 184n) & 0xffffffn)
  const lpFee = Number((slot0 >> 208n) & 0xffffffn)

  return {
    id: poolId,
    dex,
    tokens: [key.currency0.toLowerCase() as Address, key.currency1.toLowerCase() as Address],
    state: {
      model: 'concentrated',
      sqrtPriceX96: sqrtPriceX96.toString(),
      tick,
      liquidity: liquidity.toString(),
      tickSpacing: key.tickSpacing,
      feePips: lpFee,
      protocolFee,
      ticks: ticks.map(([t, net]) => [t, net.toString()]),
    },
  }
}
