import type { Address, Hex } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter, PoolRef } from '../adapters/PoolAdapter.ts'

/** One `eth_getLogs` filter (besides the block range). */
export type LogFilter = { address: Address[]; topics: Hex[]; topic1?: Hex[] }

export type FollowedLogFiltersParameters = {
  /** Every followed pool. */
  refs: Iterable<PoolRef>
  adapters: ReadonlyMap<DexId, PoolAdapter>
  /** Each deployment's source (factory, PoolManager) and kind: their discovery events. */
  sources: readonly { source: Address; dex: DexId }[]
  /** Addresses (or topic1 values) per filter at most: nodes cap the size of a filter (default 1000). */
  maxPerFilter?: number
}

/**
 * The `eth_getLogs` filters that ask for exactly the events the market needs, instead of every log
 * of the chain: the discovery events of the configured deployments; the state events of the
 * followed one-contract pools, by address, in groups of `maxPerFilter`; and for pools living in a
 * singleton manager (V4), the manager's state events filtered on the followed pool ids (topic1).
 *
 * @example
 * for (const filter of followedLogFilters({ refs: known.values(), adapters, sources })) await fetchLogsInRange({ client, ...filter, fromBlock, toBlock, maxBlockRange })
 */
export function followedLogFilters({ refs, adapters, sources, maxPerFilter = 1000 }: FollowedLogFiltersParameters): LogFilter[] {
  const filters: LogFilter[] = []
  const discoveryTopics = new Set<Hex>()
  for (const { dex } of sources) for (const topic of adapters.get(dex)?.discoveryTopics ?? []) discoveryTopics.add(topic)
  if (sources.length > 0 && discoveryTopics.size > 0) {
    filters.push({ address: [...new Set(sources.map((s) => s.source.toLowerCase() as Address))], topics: [...discoveryTopics] })
  }
  const pools: Address[] = []
  const poolTopics = new Set<Hex>()
  const singletons = new Map<Address, { topics: Set<Hex>; ids: Hex[] }>()
  for (const ref of refs) {
    const adapter = adapters.get(ref.dex)
    if (!adapter) continue
    if (ref.emitter === ref.id) {
      pools.push(ref.emitter)
      for (const topic of adapter.stateTopics) poolTopics.add(topic)
    } else {
      const group = singletons.get(ref.emitter) ?? { topics: new Set<Hex>(), ids: [] }
      for (const topic of adapter.stateTopics) group.topics.add(topic)
      group.ids.push(ref.id as Hex)
      singletons.set(ref.emitter, group)
    }
  }
  for (let i = 0; i < pools.length; i += maxPerFilter) filters.push({ address: pools.slice(i, i + maxPerFilter), topics: [...poolTopics] })
  for (const [emitter, { topics, ids }] of singletons) {
    for (let i = 0; i < ids.length; i += maxPerFilter) filters.push({ address: [emitter], topics: [...topics], topic1: ids.slice(i, i + maxPerFilter) })
  }
  return filters
}
