import { type Address, type Log, parseAbi, toEventSelector } from 'viem'
import { AdapterError } from './errors.ts'
import type { ListedPools, ListPoolsParameters, PoolRef } from './PoolAdapter.ts'

/**
 * What Curve's StableSwap factories emit when they deploy a pool: StableSwap-NG's
 * `PlainPoolDeployed(address[] coins, …)`, the legacy factory's `PlainPoolDeployed(address[4] coins, …)`
 * and both's `MetaPoolDeployed`. None names the pool: each deployment appends the pool to the
 * factory's `pool_list` first (curvefi/stableswap-ng `CurveStableSwapFactoryNG.vy`,
 * curvefi/curve-factory `Factory.vy`), so an event only says the list grew.
 */
export const curveRegistryEvents = parseAbi([
  'event PlainPoolDeployed(address[] coins, uint256 A, uint256 fee, address deployer)',
  'event PlainPoolDeployed(address[4] coins, uint256 A, uint256 fee, address deployer)',
  'event MetaPoolDeployed(address coin, address base_pool, uint256 A, uint256 fee, address deployer)',
])

const registryAbi = parseAbi(['function pool_count() view returns (uint256)', 'function pool_list(uint256) view returns (address)'])

/** Pools read from a registry per multicall at most. */
const LIST_CHUNK = 500

/**
 * Discovery through a Curve factory's append-only registry: its deploy events only say the list grew;
 * the pools are `pool_list(i)` for `i` below `pool_count()`, read at the block asked.
 *
 * @example
 * const { discoveryTopics, poolFromDiscoveryLog, listPools } = curveRegistryDiscovery((pool) => ({ id: pool, dex: 'CURVE', emitter: pool }))
 * await listPools({ client, source: factory, blockNumber, from: 0n }) // → { refs: [every pool listed], count }
 */
export function curveRegistryDiscovery(refOf: (pool: Address) => PoolRef) {
  return {
    discoveryTopics: curveRegistryEvents.map((event) => toEventSelector(event)),
    poolFromDiscoveryLog: (_log: Log) => ({ registryGrew: true }) as const,
    listPools: async ({ client, source, blockNumber, from }: ListPoolsParameters): Promise<ListedPools> => {
      const [counted] = (await client.multicall({
        allowFailure: true,
        blockNumber,
        contracts: [{ address: source, abi: registryAbi, functionName: 'pool_count' }],
      })) as ({ status: 'success'; result: bigint } | { status: 'failure'; error: Error })[]
      if (counted.status !== 'success')
        throw new AdapterError(`${source} does not answer pool_count() at block ${blockNumber}: not a Curve factory's registry`)
      const count = counted.result
      const refs: PoolRef[] = []
      for (let start = from; start < count; start += BigInt(LIST_CHUNK)) {
        const end = start + BigInt(LIST_CHUNK) < count ? start + BigInt(LIST_CHUNK) : count
        const pools = (await client.multicall({
          allowFailure: false,
          blockNumber,
          contracts: Array.from({ length: Number(end - start) }, (_, k) => ({
            address: source,
            abi: registryAbi,
            functionName: 'pool_list' as const,
            args: [start + BigInt(k)] as const,
          })),
        })) as Address[]
        for (const pool of pools) refs.push(refOf(pool.toLowerCase() as Address))
      }
      return { refs, count }
    },
  }
}
