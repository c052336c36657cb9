import { type Address, type Hex, type Log, numberToHex, type PublicClient } from 'viem'

export type FetchLogsInRangeParameters = {
  client: PublicClient
  fromBlock: bigint
  toBlock: bigint
  /** topic0 alternatives (an OR filter). */
  topics: readonly Hex[]
  /** Emitters to filter on; absent: any emitter (the caller matches emitters itself). */
  address?: readonly Address[]
  /** Blocks per `eth_getLogs` call. */
  maxBlockRange: bigint
}

/**
 * `eth_getLogs` over [fromBlock, toBlock] in chunks of `maxBlockRange` blocks (RPCs cap the range),
 * in block order. Raw `eth_getLogs`, so no filter state lives on the node.
 *
 * @example
 * const logs = await fetchLogsInRange({ client, fromBlock: 10n, toBlock: 12n, topics: [syncTopic], maxBlockRange: 2000n })
 */
export async function fetchLogsInRange({ client, fromBlock, toBlock, topics, address, maxBlockRange }: FetchLogsInRangeParameters): Promise<Log[]> {
  const logs: Log[] = []
  if (topics.length === 0 || toBlock < fromBlock) return logs
  for (let start = fromBlock; start <= toBlock; start += maxBlockRange) {
    const end = start + maxBlockRange - 1n < toBlock ? start + maxBlockRange - 1n : toBlock
    const chunk = (await client.request({
      method: 'eth_getLogs',
      params: [{ fromBlock: numberToHex(start), toBlock: numberToHex(end), topics: [topics as Hex[]], ...(address ? { address: address as Address[] } : {}) }],
    })) as Log[]
    logs.push(...chunk)
  }
  return logs
}
