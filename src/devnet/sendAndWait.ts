import type { Address, Hex, TransactionReceipt } from 'viem'
import type { Devnet } from './startDevnet.ts'
import { waitForReceipt } from './waitForReceipt.ts'

export type SendAndWaitParameters = {
  devnet: Devnet
  to?: Address
  data: Hex
  value?: bigint
  from?: Address
  gas?: bigint
  throwOnRevert?: boolean
  label?: string
}

/**
 * Sends a raw call (or a deployment when `to` is absent) from an unlocked anvil account through
 * `eth_sendTransaction`, with explicit gas and fees, and waits for the receipt.
 *
 * @example
 * const receipt = await sendAndWait({ devnet, to: weth, data: '0xd0e30db0', value: 10n ** 18n })
 * // → the receipt: 1 ETH wrapped (0xd0e30db0 is WETH's deposit())
 */
export async function sendAndWait({
  devnet,
  to,
  data,
  value,
  from,
  gas = 30_000_000n,
  throwOnRevert = true,
  label = 'transaction',
}: SendAndWaitParameters): Promise<TransactionReceipt> {
  const tx = {
    from: from ?? devnet.account,
    to,
    data,
    value: value === undefined ? undefined : `0x${value.toString(16)}`,
    gas: `0x${gas.toString(16)}`,
    // Blocks never fill (1e9 gas limit), so the base fee never rises above its 1 gwei start.
    maxFeePerGas: '0x2540be400',
    maxPriorityFeePerGas: '0x0',
  }
  // anvil signs for its unlocked accounts; viem's public-client schema does not list this method.
  const send = async () =>
    (await devnet.publicClient.request({ method: 'eth_sendTransaction' as 'eth_sendRawTransaction', params: [tx] as never })) as Hex
  let hash = await send()
  let receipt: TransactionReceipt
  try {
    // Generous: on a loaded 2-core machine a block can take seconds; waitForReceipt kicks anvil
    // with evm_mine after 2 s of silence.
    receipt = await waitForReceipt({ publicClient: devnet.publicClient, hash, timeoutMs: 30_000 })
  } catch (error) {
    // anvil's pool can wedge a transaction for good (research/devnet.md §8.3). If it did land
    // meanwhile, keep it; otherwise drop the sender's pending transactions and send once more.
    const landed = await devnet.publicClient.request({ method: 'eth_getTransactionReceipt', params: [hash] })
    if (landed) {
      receipt = await waitForReceipt({ publicClient: devnet.publicClient, hash })
    } else {
      await devnet.publicClient.request({ method: 'anvil_removePoolTransactions' as never, params: [tx.from] as never })
      hash = await send().catch((resendError: unknown) => {
        throw new Error(`${label}: no receipt, and the resend failed (${String(resendError)}); first wait: ${String(error)}`)
      })
      receipt = await waitForReceipt({ publicClient: devnet.publicClient, hash, timeoutMs: 30_000 })
    }
  }
  if (throwOnRevert && receipt.status !== 'success') throw new Error(`${label} reverted (tx ${hash})`)
  return receipt
}
