import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex, pad, type PublicClient, toEventSelector } from 'viem'
import { fetchLogsInRange } from '../fetchLogsInRange.ts'

/** topic0 of ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)`. */
const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)')

export type ReconcileTokenBalanceParameters = {
  client: PublicClient
  token: Address
  holder: Address
  /** The window: the balance at the end of `fromBlock - 1` and at the end of `toBlock`, and every Transfer between. */
  fromBlock: bigint
  toBlock: bigint
  maxBlockRange: bigint
}

export type ReconcileTokenBalanceReturnType = {
  before: bigint
  after: bigint
  /** Sums of the `value` of the token's Transfer events into and out of the holder in the window. */
  transferredIn: bigint
  transferredOut: bigint
  /** after − before equals transferredIn − transferredOut: the balance moved only by transfers. */
  reconciles: boolean
}

/**
 * Whether a holder's balance of a token moved only by the token's own Transfer events over a block
 * window: its balance before and after (two `eth_call`s pinned to the blocks) against the sums of
 * the Transfer events into and out of it (two `eth_getLogs` filtered on the token and the holder as
 * sender or recipient). A balance that moves without a Transfer is a rebasing or interest-bearing
 * token (or one that does not log its moves). A token without code at `fromBlock - 1` had no
 * balance there (an empty answer reads as 0).
 *
 * @example
 * const { reconciles } = await reconcileTokenBalance({ client, token, holder: pool, fromBlock: head - 1799n, toBlock: head, maxBlockRange: 2000n })
 * // → { before, after, transferredIn, transferredOut, reconciles: true } for a token that moves only by Transfer
 */
export async function reconcileTokenBalance({
  client,
  token,
  holder,
  fromBlock,
  toBlock,
  maxBlockRange,
}: ReconcileTokenBalanceParameters): Promise<ReconcileTokenBalanceReturnType> {
  const holderTopic = pad(holder.toLowerCase() as Hex, { size: 32 })
  const logsOf = (side: 'in' | 'out') =>
    fetchLogsInRange({
      client,
      fromBlock,
      toBlock,
      topics: [TRANSFER_TOPIC],
      address: [token],
      maxBlockRange,
      ...(side === 'in' ? { topic2: [holderTopic] } : { topic1: [holderTopic] }),
    })
  const [before, after, incoming, outgoing] = await Promise.all([
    balanceAt({ client, token, holder, blockNumber: fromBlock - 1n }),
    balanceAt({ client, token, holder, blockNumber: toBlock }),
    logsOf('in'),
    logsOf('out'),
  ])
  const sum = (logs: { data: Hex }[]) =>
    logs.reduce((total, log) => total + (log.data.length >= 66 ? BigInt(log.data.slice(0, 66)) : 0n), 0n)
  const transferredIn = sum(incoming)
  const transferredOut = sum(outgoing)
  return { before, after, transferredIn, transferredOut, reconciles: after - before === transferredIn - transferredOut }
}

async function balanceAt({
  client,
  token,
  holder,
  blockNumber,
}: {
  client: PublicClient
  token: Address
  holder: Address
  blockNumber: bigint
}): Promise<bigint> {
  const { data } = await client.call({
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder] }),
    blockNumber,
  })
  if (!data || data === '0x') return 0n
  return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data })
}
