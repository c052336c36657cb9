import {
  type Address,
  type BlockTag,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  hexToBigInt,
  multicall3Abi,
  parseAbi,
  type PublicClient,
} from 'viem'
import { loadContractArtifacts } from '../../artifacts/loadContractArtifacts.ts'
import { decodePropAmmQuote, propAmmQuoteCall, type QuotedDexId } from './propAmmQuoteCall.ts'

const blockNumberAbi = parseAbi(['function getBlockNumber() view returns (uint256)'])

let multicall3Code: Hex | undefined
/** Multicall3's runtime (our `aggregate3`-compatible build), placed at the executor for the call. */
const multicall3Runtime = () => (multicall3Code ??= loadContractArtifacts().Multicall3.deployedBytecode)

/** One exact-input quote to ask a venue: its kind, its entry contract, the trade (CURVE: and the pool's coins, in its order). */
export type PropAmmQuoteAsk = {
  dex: QuotedDexId
  entry: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  coins?: readonly Address[]
}

/**
 * Asks prop AMM venues their exact-input quotes in one `eth_call` *as the executor*: Multicall3's
 * code is placed at `executor` by a state override and runs `aggregate3` there, so each venue sees
 * the router as `msg.sender` (LUNARBASE's fee depends on the caller). An answer is undefined where
 * the venue's view reverted (paused, stale, beyond its inventory or limit). The same call asks
 * Multicall3's `getBlockNumber` too: `blockNumber` is the block the quotes were read at (what
 * `latest` was for the node that answered).
 *
 * @example
 * const { blockNumber, amounts } = await propAmmQuotesAsExecutor({ client, executor: router, asks: [{ dex: 'FELTIR', entry, tokenIn, tokenOut, amountIn }], block: { blockTag: 'latest' } })
 * // → { blockNumber: 1234n, amounts: [123456789n] } (amounts[i] undefined where the venue refused)
 */
export async function propAmmQuotesAsExecutor({
  client,
  executor,
  asks,
  block,
}: {
  client: Pick<PublicClient, 'call'>
  executor: Address
  asks: readonly PropAmmQuoteAsk[]
  block: { blockNumber: bigint } | { blockTag: BlockTag }
}): Promise<{ blockNumber: bigint; amounts: (bigint | undefined)[] }> {
  const calls = [
    ...asks.map((ask) => propAmmQuoteCall(ask)),
    { target: executor, callData: encodeFunctionData({ abi: blockNumberAbi, functionName: 'getBlockNumber' }) },
  ]
  const { data } = await client.call({
    to: executor,
    data: encodeFunctionData({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.callData }))],
    }),
    ...block,
    stateOverride: [{ address: executor, code: multicall3Runtime() }],
  })
  if (!data) throw new Error('the prop AMM quote call returned nothing')
  const answers = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data })
  const amounts = asks.map((ask, i) => {
    const answer = answers[i]
    if (!answer.success) return undefined
    try {
      return decodePropAmmQuote(ask.dex, answer.returnData)
    } catch {
      return undefined // an answer of the wrong shape is no quote
    }
  })
  return { blockNumber: hexToBigInt(answers[asks.length].returnData), amounts }
}
