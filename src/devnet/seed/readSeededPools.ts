import { type Address, type Chain, hexToBigInt, numberToHex, parseAbi, type PublicClient, type Transport } from 'viem'
import { uniswapV4StateSlot } from '../../adapters/poolKeys/uniswapV4StateSlot.ts'
import type { DevnetDescription } from './DevnetDescription.ts'

const abi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  // Only the leading fields: Uniswap's and Pancake's slot0 differ after `tick` (feeProtocol width).
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick)',
  'function globalState() view returns (uint160 price, int24 tick, uint16 lastFee)',
  'function liquidity() view returns (uint128)',
  'function extsload(bytes32 slot) view returns (bytes32)',
  'function getSlot0(bytes32 id) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getLiquidity(bytes32 id) view returns (uint128)',
])
/** Aerodrome's reserves are uint256 (three words, like V2's shape but not its types). */
const aerodromeAbi = parseAbi(['function getReserves() view returns (uint256 reserve0, uint256 reserve1, uint256 blockTimestampLast)'])

/** A pool's live state, in raw units. */
export type SeededPoolState = {
  address: string
  /** token1 base units per token0 base unit (float: for comparisons only). */
  price: number
  /** V2 kinds and Aerodrome: reserves; concentrated kinds: sqrt price and in-range liquidity. */
  reserve0?: bigint
  reserve1?: bigint
  sqrtPriceX96?: bigint
  liquidity?: bigint
}

export type ReadSeededPoolsParameters = { publicClient: PublicClient<Transport, Chain>; market: DevnetDescription }

/**
 * Reads every pool of the seeded market in one multicall: V2, Pancake V2 and Aerodrome reserves,
 * V3/Pancake/Slipstream `slot0`, Algebra `globalState`, V4 slot0 and liquidity through `extsload`,
 * Infinity CL `getSlot0`/`getLiquidity`; plus in-range liquidity. A stable Aerodrome pool's
 * `price` is its reserves' ratio, which is its price only while it is balanced (as seeded).
 *
 * @example
 * const states = await readSeededPools({ publicClient, market })
 * // → [{ address, price (float, for comparison only), reserve0/reserve1 or sqrtPriceX96/liquidity }, …] per seeded pool
 */
export async function readSeededPools({ publicClient, market }: ReadSeededPoolsParameters): Promise<SeededPoolState[]> {
  const poolManager = market.factories.UNIV4.poolManager
  type Call = { address: Address; abi: typeof abi | typeof aerodromeAbi; functionName: string; args?: readonly unknown[] }
  const contracts = market.pools.flatMap((pool): Call[] => {
    const address = pool.address as Address
    if (pool.dex === 'UNIV2' || pool.dex === 'PANCAKE_V2') return [{ address, abi, functionName: 'getReserves' }]
    if (pool.dex === 'AERODROME_V2LIKE') return [{ address, abi: aerodromeAbi, functionName: 'getReserves' }]
    if (pool.dex === 'PANCAKE_INFINITY_CL') {
      const manager = market.factories.PANCAKE_INFINITY_CL.poolManager
      return [
        { address: manager, abi, functionName: 'getSlot0', args: [pool.address] },
        { address: manager, abi, functionName: 'getLiquidity', args: [pool.address] },
      ]
    }
    if (pool.dex === 'UNIV4') {
      const slot = uniswapV4StateSlot({ poolId: pool.address })
      return [
        { address: poolManager, abi, functionName: 'extsload', args: [numberToHex(slot, { size: 32 })] },
        { address: poolManager, abi, functionName: 'extsload', args: [numberToHex(slot + 3n, { size: 32 })] },
      ]
    }
    const priceCall = pool.dex === 'QUICKSWAP_V4' || pool.dex === 'HYDREX' ? 'globalState' : 'slot0'
    return [
      { address, abi, functionName: priceCall },
      { address, abi, functionName: 'liquidity' },
    ]
  })
  const results = (await publicClient.multicall({ allowFailure: false, contracts: contracts as never })) as unknown[]
  let i = 0
  return market.pools.map((pool) => {
    if (pool.dex === 'UNIV2' || pool.dex === 'PANCAKE_V2' || pool.dex === 'AERODROME_V2LIKE') {
      const [reserve0, reserve1] = results[i++] as [bigint, bigint]
      return { address: pool.address, price: Number(reserve1) / Number(reserve0), reserve0, reserve1 }
    }
    let sqrtPriceX96: bigint
    let liquidity: bigint
    if (pool.dex === 'UNIV4') {
      // slot0 packs sqrtPriceX96 in its low 160 bits; liquidity is a uint128 at stateSlot + 3.
      sqrtPriceX96 = hexToBigInt(results[i++] as `0x${string}`) & ((1n << 160n) - 1n)
      liquidity = hexToBigInt(results[i++] as `0x${string}`) & ((1n << 128n) - 1n)
    } else {
      sqrtPriceX96 = (results[i++] as [bigint])[0]
      liquidity = results[i++] as bigint
    }
    const sqrtPrice = Number(sqrtPriceX96) / 2 ** 96
    return { address: pool.address, price: sqrtPrice * sqrtPrice, sqrtPriceX96, liquidity }
  })
}
