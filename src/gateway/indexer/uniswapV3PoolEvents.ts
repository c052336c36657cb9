import { parseAbi } from 'viem'

/**
 * The Uniswap V3 pool events the indexer reads from launched pools (the pool's own event
 * signatures, as `@uniswap/v3-core` declares them).
 *
 * @example
 * const logs = await client.getLogs({ address: pools, events: uniswapV3PoolEvents, fromBlock, toBlock })
 * // → the pools' Initialize and Swap logs, decoded (args.sqrtPriceX96, args.tick, …)
 */
export const uniswapV3PoolEvents = parseAbi([
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])
