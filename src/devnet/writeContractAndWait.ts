import { type Abi, type Address, encodeFunctionData, type TransactionReceipt } from 'viem'
import { sendAndWait } from './sendAndWait.ts'
import type { Devnet } from './startDevnet.ts'

export type WriteContractAndWaitParameters = {
  devnet: Devnet
  address: Address
  abi: Abi | readonly unknown[]
  functionName: string
  args?: readonly unknown[]
  value?: bigint
  /** Sender; default the devnet's account (must be unlocked on anvil). */
  from?: Address
  /** Gas limit; default 30M, so nothing is estimated (a revert shows in the receipt). */
  gas?: bigint
  /** Throw when the transaction reverts; default true. */
  throwOnRevert?: boolean
}

/**
 * Sends a contract call from an unlocked anvil account with explicit gas and fees (no estimation
 * round trips) and waits for its receipt.
 *
 * @example
 * await writeContractAndWait({ devnet, address: token, abi, functionName: 'mint', args: [to, 10n ** 18n] })
 * // → the receipt; to now holds 1 more token (10^18 base units)
 */
export async function writeContractAndWait({
  devnet,
  address,
  abi,
  functionName,
  args = [],
  value,
  from,
  gas = 30_000_000n,
  throwOnRevert = true,
}: WriteContractAndWaitParameters): Promise<TransactionReceipt> {
  const data = encodeFunctionData({ abi: abi as Abi, functionName, args })
  return sendAndWait({ devnet, to: address, data, value, from, gas, throwOnRevert, label: functionName })
}
