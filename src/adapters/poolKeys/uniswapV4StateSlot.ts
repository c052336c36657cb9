import { encodeAbiParameters, type Hex, hexToBigInt, keccak256 } from 'viem'

/** StateLibrary: `mapping(PoolId => Pool.State) _pools` is storage slot 6 of PoolManager. */
const POOLS_SLOT = 6n

/**
 * The storage slot of a V4 pool's `Pool.State` in the PoolManager (slot0 lives there; feeGrowth
 * at +1/+2, liquidity +3, ticks mapping +4, tickBitmap mapping +5, positions +6).
 *
 * @example
 * const slot0Slot = uniswapV4StateSlot({ poolId })
 */
export function uniswapV4StateSlot({ poolId }: { poolId: Hex }): bigint {
  return hexToBigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, POOLS_SLOT])))
}
