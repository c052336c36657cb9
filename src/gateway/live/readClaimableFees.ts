import { type Address, decodeFunctionResult, encodeFunctionData, parseAbi, type PublicClient } from 'viem'
import { feeLockerAbi } from '../launchpad/feeLockerAbi.ts'

const multicall3Abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])

export type ReadClaimableFeesParameters = {
  client: PublicClient
  multicall3: Address
  feeLocker: Address
  positions: readonly { token: Address; recipient: Address }[]
  blockNumber: bigint
}

/**
 * What a claim would pay each position at `blockNumber`: one `eth_call` of Multicall3's
 * `aggregate3` that first runs the locker's `collectFees` for every token (fees still in the pool
 * become accruals, as a claim's own collect would make them), then reads each position's
 * `accrued`. Nothing is sent; the simulation is the claim's exact arithmetic.
 *
 * @example
 * const amounts = await readClaimableFees({ client, multicall3, feeLocker, positions, blockNumber })
 * // → [{ tokenAmount, pairedAmount }, …] per position, as a claim at blockNumber would pay
 */
export async function readClaimableFees({
  client,
  multicall3,
  feeLocker,
  positions,
  blockNumber,
}: ReadClaimableFeesParameters): Promise<{ tokenAmount: bigint; pairedAmount: bigint }[]> {
  if (positions.length === 0) return []
  const tokens = [...new Set(positions.map((p) => p.token.toLowerCase()))] as Address[]
  const calls = [
    ...tokens.map((token) => ({
      target: feeLocker,
      allowFailure: true,
      callData: encodeFunctionData({ abi: feeLockerAbi, functionName: 'collectFees', args: [token] }),
    })),
    ...positions.map((p) => ({
      target: feeLocker,
      allowFailure: false,
      callData: encodeFunctionData({ abi: feeLockerAbi, functionName: 'accrued', args: [p.token, p.recipient] }),
    })),
  ]
  const { data } = await client.call({
    to: multicall3,
    data: encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }),
    blockNumber,
  })
  if (!data) throw new Error('aggregate3 returned no data')
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data })
  return results.slice(tokens.length).map((r) => {
    const [tokenAmount, pairedAmount] = decodeFunctionResult({ abi: feeLockerAbi, functionName: 'accrued', data: r.returnData })
    return { tokenAmount, pairedAmount }
  })
}
