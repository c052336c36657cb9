import type { Address, Log } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter, PoolRef } from '../adapters/PoolAdapter.ts'

export type ClassifyLogsParameters = {
  logs: readonly Log[]
  /** The adapter reading each deployment's discovery events, by lowercase source address. */
  sourceAdapter: ReadonlyMap<Address, PoolAdapter>
  /** The kind of each followed emitter (pool contract or singleton manager), by lowercase address. */
  emitterDex: ReadonlyMap<Address, DexId>
  adapters: ReadonlyMap<DexId, PoolAdapter>
  /** Whether a pool id is followed already. */
  isKnown: (id: string) => boolean
}

export type ClassifiedLogs = {
  /** Pools announced by a discovery event and not followed yet, in log order. */
  discovered: PoolRef[]
  /** Announced pools never read, with why (a V4 pool with hooks). */
  skipped: { id: string; dex: DexId; reason: string }[]
  /** Followed pools any of whose logs say they changed, with the block of each pool's last log. */
  changed: Map<string, bigint>
  /** Registry sources (`DexDeployment.registry`) that announced a pool: list them again. */
  registriesGrown: Set<Address>
}

/**
 * Sorts a range's logs into newly created pools (from the deployments' discovery events; a registry
 * source's event only says its list grew: `registriesGrown`) and
 * followed pools whose pricing state may have changed: any log of a followed pool. A state event
 * the adapter knows names its pool; any other log names the pool that emitted it (a one-contract
 * pool) or the pool id in its topic1 (a singleton manager's): an event we do not decode (Algebra's
 * 9-field Swap on Base, a plugin's, a fork's) still changed the pool, which is re-read whole.
 *
 * @example
 * const { discovered, changed } = classifyLogs({ logs, sourceAdapter, emitterDex, adapters, isKnown: (id) => known.has(id) })
 * // → discovered: new PoolRefs; changed: Map(followed pool id → block of its last log)
 */
export function classifyLogs({ logs, sourceAdapter, emitterDex, adapters, isKnown }: ClassifyLogsParameters): ClassifiedLogs {
  const discovered: PoolRef[] = []
  const seen = new Set<string>()
  const skipped: ClassifiedLogs['skipped'] = []
  const changed = new Map<string, bigint>()
  const registriesGrown = new Set<Address>()
  for (const entry of logs) {
    const emitter = entry.address.toLowerCase() as Address
    const topic0 = entry.topics[0]
    const source = sourceAdapter.get(emitter)
    if (topic0 && source?.discoveryTopics.includes(topic0)) {
      const found = source.poolFromDiscoveryLog(entry)
      if ('registryGrew' in found) registriesGrown.add(emitter)
      else if ('ref' in found) {
        if (!isKnown(found.ref.id) && !seen.has(found.ref.id)) {
          seen.add(found.ref.id)
          discovered.push(found.ref)
        }
      } else skipped.push(found.skipped)
      continue
    }
    const dex = emitterDex.get(emitter)
    const adapter = dex && adapters.get(dex)
    if (!adapter) continue
    const id =
      topic0 && adapter.stateTopics.includes(topic0)
        ? adapter.poolIdOfStateLog(entry)
        : isKnown(emitter)
          ? emitter
          : (entry.topics[1] ?? '').toLowerCase()
    if (isKnown(id)) changed.set(id, entry.blockNumber ?? 0n)
  }
  return { discovered, skipped, changed, registriesGrown }
}
