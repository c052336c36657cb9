import { type Address, parseAbi, type PublicClient } from 'viem'

const balanceOfAbi = parseAbi(['function balanceOf(address) view returns (uint256)'])

/**
 * `balanceOf` of each (token, holder) at `blockNumber`, in one multicall.
 *
 * @example
 * const [balance] = await readBalances({ client, multicall3, pairs: [{ token, holder }], blockNumber })
 * // → holder's balance of token at blockNumber (bigint)
 */
export async function readBalances({
  client,
  multicall3,
  pairs,
  blockNumber,
}: {
  client: PublicClient
  multicall3: Address
  pairs: readonly { token: Address; holder: Address }[]
  blockNumber: bigint
}): Promise<bigint[]> {
  if (pairs.length === 0) return []
  return (await client.multicall({
    multicallAddress: multicall3,
    allowFailure: false,
    blockNumber,
    contracts: pairs.map((p) => ({ address: p.token, abi: balanceOfAbi, functionName: 'balanceOf', args: [p.holder] }) as const),
  })) as bigint[]
}
