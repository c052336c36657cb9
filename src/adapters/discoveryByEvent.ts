import { type AbiEvent, type DecodeEventLogReturnType, decodeEventLog, type Log, toEventSelector } from 'viem'
import type { DiscoveredPool, PoolAdapter } from './PoolAdapter.ts'

/**
 * The discovery half of an adapter whose pools one event of the deployment's source announces (a
 * factory's `PoolCreated`, a manager's `Initialize`): that event's topic, and each of its logs
 * decoded into the event's arguments before `poolOf` names the pool.
 *
 * @example
 * const { discoveryTopics, poolFromDiscoveryLog } = discoveryByEvent(
 *   parseAbiItem('event PlainPoolDeployed(address pool)'),
 *   (args) => ({ ref: { id: args.pool.toLowerCase(), dex: 'CURVE', emitter: args.pool.toLowerCase() } }),
 * )
 * discoveryTopics // → [keccak256('PlainPoolDeployed(address)')]
 * poolFromDiscoveryLog(log) // → { ref: { id: '0x…', dex: 'CURVE', emitter: '0x…' } }
 */
export function discoveryByEvent<const event extends AbiEvent>(
  event: event,
  poolOf: (args: EventArgs<event>, log: Log) => DiscoveredPool,
): Pick<PoolAdapter, 'discoveryTopics' | 'poolFromDiscoveryLog'> {
  return {
    discoveryTopics: [toEventSelector(event)],
    poolFromDiscoveryLog: (log) => {
      // decodeEventLog throws unless the log is this event, so its arguments are there.
      const { args } = decodeEventLog({ abi: [event] as const, data: log.data, topics: log.topics })
      return poolOf(args as EventArgs<event>, log)
    },
  }
}

/** The decoded arguments of one event, by name. */
type EventArgs<event extends AbiEvent> = NonNullable<DecodeEventLogReturnType<readonly [event]>['args']>
