import { type AbiEvent, toEventSelector } from 'viem'
import type { PoolAdapter } from './PoolAdapter.ts'

type StateLogs = Pick<PoolAdapter, 'stateTopics' | 'poolIdOfStateLog'>

/**
 * State logs of a one-contract pool: `events` are the pool's own (signatures or parsed), so the
 * pool a log concerns is the address that emitted it.
 *
 * @example
 * const { stateTopics, poolIdOfStateLog } = stateLogsOfPool(['event Sync(uint112 reserve0, uint112 reserve1)'])
 * stateTopics // → ['0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1']
 * poolIdOfStateLog({ address: '0xAbC…', … }) // → '0xabc…'
 */
export function stateLogsOfPool(events: readonly (string | AbiEvent)[]): StateLogs {
  return { stateTopics: events.map((event) => toEventSelector(event)), poolIdOfStateLog: (log) => log.address.toLowerCase() }
}

/**
 * State logs of a singleton pool manager (Uniswap V4, PancakeSwap Infinity): every event indexes the
 * pool id first, so the pool a log concerns is its topic1, whatever contract emitted it.
 *
 * @example
 * const { poolIdOfStateLog } = stateLogsOfManager(['event Swap(bytes32 indexed id, …)'])
 * poolIdOfStateLog({ topics: [selector, '0xAB…'], … }) // → '0xab…'
 */
export function stateLogsOfManager(events: readonly (string | AbiEvent)[]): StateLogs {
  return { stateTopics: events.map((event) => toEventSelector(event)), poolIdOfStateLog: (log) => (log.topics[1] ?? '').toLowerCase() }
}
