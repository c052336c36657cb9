import type { Address, Hex } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter, PoolRef } from '../adapters/PoolAdapter.ts'

/** One `eth_getLogs` filter (besides the block range); `topics` absent: any event of those addresses. */
export type LogFilter = { address: Address[]; topics?: Hex[]; topic1?: Hex[] }

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
 * The `eth_getLogs` filters that ask for the logs the market needs, instead of every log of the
 * chain: the discovery events of the configured deployments; every log of the followed
 * one-contract pools, by address only (whatever its event: a deployment emitting an event we do not
 * decode, such as Algebra's 9-field Swap, still changed its pool), in groups of `maxPerFilter`;
 * and for pools living in a singleton manager (V4, Infinity), every log of the manager whose
 * topic1 is one of the followed pool ids, in groups of `maxPerFilter` (the manager's other logs
 * are every other pool's).
 *
 * @example
 * for (const filter of followedLogFilters({ refs: known.values(), adapters, sources })) await fetchLogsInRange({ client, ...filter, fromBlock, toBlock, maxBlockRange })
 * // filters: the sources' discovery topics, the pools in groups of 1000, each manager's logs by topic1 pool ids
 */
export function followedLogFilters({ refs, adapters, sources, maxPerFilter = 1000 }: FollowedLogFiltersParameters): LogFilter[] {
  const filters: LogFilter[] = []
  const discoveryTopics = new Set<Hex>()
  for (const { dex } of sources) for (const topic of adapters.get(dex)?.discoveryTopics ?? []) discoveryTopics.add(topic)
  if (sources.length > 0 && discoveryTopics.size > 0) {
    filters.push({ address: [...new Set(sources.map((s) => s.source.toLowerCase() as Address))], topics: [...discoveryTopics] })
  }
  const pools: Address[] = []
  const singletons = new Map<Address, Hex[]>()
  for (const ref of refs) {
    if (!adapters.has(ref.dex)) continue
    if (ref.emitter === ref.id) pools.push(ref.emitter)
    else singletons.set(ref.emitter, [...(singletons.get(ref.emitter) ?? []), ref.id as Hex])
  }
  for (let i = 0; i < pools.length; i += maxPerFilter) filters.push({ address: pools.slice(i, i + maxPerFilter) })
  for (const [emitter, ids] of singletons) {
    for (let i = 0; i < ids.length; i += maxPerFilter) filters.push({ address: [emitter], topic1: ids.slice(i, i + maxPerFilter) })
  }
  return filters
}
