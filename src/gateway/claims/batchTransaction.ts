import { type Address, encodeFunctionData, type Hex, parseAbi } from 'viem'

const multicall3Abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])

/**
 * One transaction for a batch of calls: the call itself when there is one, else Multicall3's
 * `aggregate3` with every call required to succeed (the batch pays all or nothing). The claims
 * are permissionless and pay their recipient, so the batch may run from Multicall3.
 *
 * @example
 * const tx = batchTransaction({ multicall3, calls: [{ to: locker, data }] })
 * // → { to: locker, data, value: 0n } for one call; two or more: { to: multicall3, data: aggregate3(all required), value: 0n }
 */
export function batchTransaction({ multicall3, calls }: { multicall3: Address; calls: { to: Address; data: Hex }[] }): {
  to: Address
  data: Hex
  value: bigint
} {
  if (calls.length === 1) return { to: calls[0].to, data: calls[0].data, value: 0n }
  return {
    to: multicall3,
    data: encodeFunctionData({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [calls.map((c) => ({ target: c.to, allowFailure: false, callData: c.data }))],
    }),
    value: 0n,
  }
}
