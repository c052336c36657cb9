import { encodeAbiParameters, type Hex, hexToBigInt, keccak256 } from 'viem'

/** StateLibrary: `mapping(PoolId => Pool.State) _pools` is storage slot 6 of PoolManager. */
const POOLS_SLOT = 6n

/**
 * The storage slot of a V4 pool's `Pool.State` in the PoolManager (slot0 lives there; feeGrowth
 * at +1/+2, liquidity +3, ticks mapping +4, tickBitmap mapping +5, positions +6).
 *
 * @example
 * const slot0Slot = uniswapV4StateSlot({ poolId })
 * // → 0x8784bf2428c2afb3174b9a84346600c91830d2e53f0e0e5537eb58cb7d29813cn for the WETH/USDC 3000/60 pool id 0x1d8c…8f54
 */
export function uniswapV4StateSlot({ poolId }: { poolId: Hex }): bigint {
  return hexToBigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, POOLS_SLOT])))
}
