import { type Address, encodeAbiParameters, type Hex, hexToBigInt, keccak256, numberToHex, parseAbi, type PublicClient } from 'viem'
import type { DexId, PoolInput } from '../../../bindings/types.ts'
import { uniswapV4PoolId } from '../../devnet/uniswapV4PoolId.ts'
import type { UniswapV4PoolKey } from '../../devnet/uniswapV4PoolKey.ts'
import { uniswapV4StateSlot } from '../../devnet/uniswapV4StateSlot.ts'
import { PoolUnusableError } from '../errors.ts'
import { bitmapWordRange } from './bitmapWordRange.ts'
import { initializedTicksFromBitmap } from './initializedTicksFromBitmap.ts'

const extsloadAbi = parseAbi(['function extsload(bytes32[] slots) view returns (bytes32[])'])

export type ReadUniswapV4PoolParameters = {
  client: PublicClient
  poolManager: Address
  key: UniswapV4PoolKey
  dex?: DexId
  blockNumber?: bigint
}

const slotOf = (key: bigint, slot: bigint): Hex =>
  keccak256(encodeAbiParameters([{ type: 'int256' }, { type: 'uint256' }], [key, slot]))
const signed = (value: bigint, bits: number) => BigInt.asIntN(bits, value)

/**
 * Reads a V4 pool from the PoolManager's storage with `extsload`, at one block, into the solver's
 * `concentrated` input: slot0 (sqrtPriceX96 | tick << 160 | protocolFee << 184 | lpFee << 208),
 * liquidity (state + 3), every tickBitmap word (state + 5, int16 keys) and each initialized tick's
 * liquidityNet (high 128 bits of the first word of `ticks[t]`, state + 4).
 *
 * @example
 * const input = await readUniswapV4Pool({ client, poolManager, key, blockNumber })
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
  const [slot0, liquidity] = await load([numberToHex(stateSlot, { size: 32 }), numberToHex(stateSlot + 3n, { size: 32 })])
  if (slot0 === 0n) throw new PoolUnusableError({ poolId, dex, reason: 'not initialized' })
  const sqrtPriceX96 = slot0 & ((1n << 160n) - 1n)
  const tick = Number(signed((slot0 >> 160n) & 0xffffffn, 24))
  const protocolFee = Number((slot0 >> 184n) & 0xffffffn)
  const lpFee = Number((slot0 >> 208n) & 0xffffffn)

  const { minWord, maxWord } = bitmapWordRange({ tickSpacing: key.tickSpacing })
  const positions = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i)
  const wordValues = await load(positions.map((w) => slotOf(BigInt(w), stateSlot + 5n)))
  const words = new Map(positions.map((w, i) => [w, wordValues[i]] as const).filter(([, v]) => v !== 0n))
  const tickList = initializedTicksFromBitmap({ words, tickSpacing: key.tickSpacing })
  const infos = await load(tickList.map((t) => slotOf(BigInt(t), stateSlot + 4n)))

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
      ticks: tickList.map((t, i) => [t, signed(infos[i] >> 128n, 128).toString()]),
    },
  }
}
