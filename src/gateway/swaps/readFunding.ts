import { type Address, parseAbi } from 'viem'
import { isNativeSentinel } from '../../quote/isNativeSentinel.ts'
import type { GatewayChain } from '../GatewayChain.ts'
import { withDeadline } from '../live/withDeadline.ts'

const erc20Abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
])

/**
 * What a wallet can pay with at one block: its balance of `token` (of the native asset for the
 * sentinel) and its allowance to `spender` (unlimited for the native asset: nothing is pulled),
 * and the block's time (a plan's deadline is in chain time).
 *
 * @example
 * const { balance, allowance, timestamp } = await readFunding({ chain, wallet, token, spender: router, blockNumber, timeoutMs: 5000 })
 * // → bigints at blockNumber; for the native sentinel, allowance is 2^256 − 1 (nothing is pulled)
 */
export async function readFunding({
  chain,
  wallet,
  token,
  spender,
  blockNumber,
  timeoutMs,
}: {
  chain: GatewayChain
  wallet: Address
  token: Address
  spender: Address
  blockNumber: bigint
  timeoutMs: number
}) {
  return withDeadline({
    dependency: 'the chain',
    timeoutMs,
    run: async () => {
      const block = chain.client.getBlock({ blockNumber })
      if (isNativeSentinel(token)) {
        const [balance, { timestamp }] = await Promise.all([chain.client.getBalance({ address: wallet, blockNumber }), block])
        return { balance, allowance: 2n ** 256n - 1n, timestamp }
      }
      const [balance, allowance, { timestamp }] = await Promise.all([
        chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber }),
        chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [wallet, spender], blockNumber }),
        block,
      ])
      return { balance, allowance, timestamp }
    },
  })
}
