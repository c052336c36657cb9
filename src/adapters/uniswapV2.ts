import { type Address, decodeEventLog, encodeEventTopics, getAddress, parseAbi } from 'viem'
import type { PoolAdapter } from './PoolAdapter.ts'
import { readUniswapV2Pool } from './state/readUniswapV2Pool.ts'

const factoryEvents = parseAbi(['event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)'])
/** Every reserve change (swap, mint, burn, sync, skim-free) ends in `Sync`. */
const pairEvents = parseAbi(['event Sync(uint112 reserve0, uint112 reserve1)'])

/**
 * Uniswap V2 pairs: discovered from the factory's `PairCreated`, priced from `getReserves()`,
 * refreshed on `Sync`, executed as `v2_direct` with the 30 bps fee.
 *
 * @example
 * const snapshot = await uniswapV2.readPool({ client, ref: { id: pair, dex: 'UNIV2', emitter: pair }, blockNumber })
 */
export const uniswapV2: PoolAdapter = {
  dex: 'UNIV2',
  legKind: 'v2_direct',
  discoveryTopics: [encodeEventTopics({ abi: factoryEvents, eventName: 'PairCreated' })[0]],
  poolFromDiscoveryLog: (log) => {
    const { args } = decodeEventLog({ abi: factoryEvents, data: log.data, topics: log.topics })
    const id = args.pair.toLowerCase() as Address
    return { ref: { id, dex: 'UNIV2', emitter: id } }
  },
  stateTopics: [encodeEventTopics({ abi: pairEvents, eventName: 'Sync' })[0]],
  poolIdOfStateLog: (log) => log.address.toLowerCase(),
  refOfConfiguredPool: (pool) => {
    const id = pool.address.toLowerCase() as Address
    return { id, dex: 'UNIV2', emitter: id }
  },
  readPool: async ({ client, ref, blockNumber }) => ({
    ref,
    input: await readUniswapV2Pool({ client, pair: ref.emitter, blockNumber }),
    refreshEveryBlock: false,
  }),
  encodeLeg: (ref) => ({ kind: 'v2_direct', pool: getAddress(ref.id), feeBps: 30 }),
}
