import { type Address, type Hex, type Log, numberToHex, type PublicClient } from 'viem'
import { throttleDelayMs, throttleOf } from '../chains/rpc/throttleOf.ts'
import type { RpcBudget } from './createRpcBudget.ts'
import { isTransportError } from './isTransportError.ts'

export type FetchLogsInRangeParameters = {
  client: PublicClient
  fromBlock: bigint
  toBlock: bigint
  /** topic0 alternatives (an OR filter); absent: any event (a followed pool's every log). */
  topics?: readonly Hex[]
  /** topic1 alternatives (an OR filter), e.g. the V4 pool ids a PoolManager's events are about; absent: any. */
  topic1?: readonly Hex[]
  /** topic2 alternatives (an OR filter), e.g. the recipient of a Transfer; absent: any. */
  topic2?: readonly Hex[]
  /** Emitters to filter on; absent: any emitter (the caller matches emitters itself). */
  address?: readonly Address[]
  /** Blocks per `eth_getLogs` call (at most). */
  maxBlockRange: bigint
  /** Transport failures retried per range before giving up (default 3), with a doubling delay. */
  retries?: number
  /** First retry delay in ms (default 200). */
  retryDelayMs?: number
  /** Throttles (HTTP 429, rate-limit answers) in a row per range before giving up (default 8). */
  throttleRetries?: number
  /** First wait after a throttle without Retry-After, doubling per throttle in a row (default 500 ms). */
  throttleDelayMs?: number
  /** Longest single wait after a throttle, Retry-After included (default 30 s). */
  maxThrottleDelayMs?: number
  /** Called after each range is fetched (discovery's progress). */
  onRange?: (range: { fromBlock: bigint; toBlock: bigint; logs: number }) => void
  /** Counts every `eth_getLogs` request (metrics, benchmarks). */
  onRequest?: () => void
  /** Every `eth_getLogs` request (splits and retries included) runs within it (discovery's RPC budget); absent: at once. */
  budget?: RpcBudget
  /** Called with the size in blocks of each range the node refused as too large (discovery adapts its range size). */
  onTooLarge?: (blocks: bigint) => void
}

/**
 * A node's answer that the range or the result is too large (each provider words it its own way):
 * the range is split in two and both halves asked again. Checked after `throttleOf`: "limit" and
 * "too many" also word rate limits ("rate limit exceeded", "429 Too Many Requests"), which slow
 * down instead.
 */
const TOO_LARGE = /range|too many|too large|limit|exceed|10000|response size|query returned more|timeout|timed out/i

/**
 * `eth_getLogs` over [fromBlock, toBlock] in ranges of at most `maxBlockRange` blocks, in block
 * order. A range the node refuses as too large (or times out on) is split in two, down to one
 * block; a throttle (HTTP 429 or a rate-limit answer) waits the node's Retry-After (else a doubling
 * delay) and asks the same range again, up to `throttleRetries` in a row; a transport failure is
 * retried `retries` times with a doubling delay before the whole fetch fails (nothing half-fetched
 * is returned). Raw `eth_getLogs`, so no filter lives on the node.
 *
 * @example
 * const logs = await fetchLogsInRange({ client, fromBlock: 10n, toBlock: 12n, topics: [syncTopic], address: [pair], maxBlockRange: 2000n })
 * // → the pair's Sync logs in blocks 10..12, in order (one eth_getLogs; wider ranges in 2000-block slices)
 */
export async function fetchLogsInRange({
  client,
  fromBlock,
  toBlock,
  topics,
  topic1,
  topic2,
  address,
  maxBlockRange,
  retries = 3,
  retryDelayMs = 200,
  throttleRetries = 8,
  throttleDelayMs: throttleBaseMs = 500,
  maxThrottleDelayMs = 30_000,
  onRange,
  onRequest,
  budget = (call) => call(),
  onTooLarge,
}: FetchLogsInRangeParameters): Promise<Log[]> {
  const logs: Log[] = []
  if (topics?.length === 0 || toBlock < fromBlock) return logs
  if ((address && address.length === 0) || (topic1 && topic1.length === 0) || (topic2 && topic2.length === 0)) return logs
  if (!topics && !address) throw new RangeError('fetchLogsInRange: a filter without topics must name its addresses')
  const topic0 = topics ?? null
  const topicFilter = topic2 ? [topic0, topic1 ?? null, topic2] : topic1 ? [topic0, topic1] : topics ? [topics] : []
  const ask = async (start: bigint, end: bigint): Promise<Log[]> => {
    for (let attempt = 0, throttled = 0; ;) {
      try {
        return (await budget(() => {
          onRequest?.()
          return client.request({
            method: 'eth_getLogs',
            params: [
              {
                fromBlock: numberToHex(start),
                toBlock: numberToHex(end),
                topics: topicFilter as (Hex[] | null)[],
                ...(address ? { address: address as Address[] } : {}),
              },
            ],
          })
        })) as Log[]
      } catch (error) {
        const throttle = throttleOf(error)
        if (throttle && throttled < throttleRetries) {
          await new Promise((resolve) =>
            setTimeout(resolve, throttleDelayMs({ throttle, attempt: throttled++, baseMs: throttleBaseMs, maxMs: maxThrottleDelayMs })),
          )
          continue
        }
        if (!throttle && end > start && !isNodeDown(error) && TOO_LARGE.test(messageOf(error))) {
          onTooLarge?.(end - start + 1n)
          const middle = start + (end - start) / 2n
          return [...(await ask(start, middle)), ...(await ask(middle + 1n, end))]
        }
        if (attempt >= retries || !isTransportError(error)) throw error
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** attempt++))
      }
    }
  }
  for (let start = fromBlock; start <= toBlock; start += maxBlockRange) {
    const end = start + maxBlockRange - 1n < toBlock ? start + maxBlockRange - 1n : toBlock
    const chunk = await ask(start, end)
    logs.push(...chunk)
    onRange?.({ fromBlock: start, toBlock: end, logs: chunk.length })
  }
  return logs
}

const messageOf = (error: unknown) =>
  error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ''}` : String(error)

/** A node that does not answer at all is retried as it is, not split (splitting would only multiply the calls). */
const isNodeDown = (error: unknown) => /ECONNREFUSED|fetch failed|circuit open/i.test(messageOf(error))
