import { type AbiEvent, type DecodeEventLogReturnType, decodeEventLog, type Log, toEventSelector } from 'viem'
import type { DiscoveredPool, PoolAdapter } from './PoolAdapter.ts'

/**
 * The discovery half of an adapter whose pools one event of the deployment's source announces (a
 * factory's `PoolCreated`, a manager's `Initialize`): that event's topic, and each of its logs
 * decoded into the event's arguments before `poolOf` names the pool.
 *
 * @example
 * const { discoveryTopics, poolFromDiscoveryLog } = discoveryByEvent(
 *   parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256)'),
 *   (args) => ({ ref: { id: args.pair.toLowerCase(), dex: 'UNIV2', emitter: args.pair.toLowerCase() } }),
 * )
 * discoveryTopics // → [keccak256('PairCreated(address,address,address,uint256)')]
 * poolFromDiscoveryLog(log) // → { ref: { id: '0x…', dex: 'UNIV2', emitter: '0x…' } }
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
