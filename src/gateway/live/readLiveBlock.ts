import type { GatewayChain } from '../GatewayChain.ts'
import { withDeadline } from './withDeadline.ts'

/**
 * The chain's latest block number, read now (never cached: the live values of a response are all
 * read at this one block, its `as_of_block`), within the deadline, its failure mapped.
 *
 * @example
 * const block = await readLiveBlock({ chain, timeoutMs: 5000 })
 * // → the latest block number (bigint); 'upstream_timeout' past 5 s, the mapped problem when the node fails
 */
export async function readLiveBlock({ chain, timeoutMs }: { chain: GatewayChain; timeoutMs: number }): Promise<bigint> {
  return withDeadline({ run: () => chain.client.getBlockNumber({ cacheTime: 0 }), dependency: 'the chain', timeoutMs })
}
