import { type Address, createWalletClient, type Hex, http, type TransactionReceipt } from 'viem'
import type { privateKeyToAccount } from 'viem/accounts'
import type { SeededDevnet } from '../../src/devnet/startSeededDevnet.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'

/**
 * Signs `tx` with a funded test account's key, broadcasts it to the embedded chain (gas 8M, a fee
 * cap of 10 gwei, no tip) and waits for its receipt: how the HTTP end-to-end tests play the user.
 *
 * @example
 * const receipt = await sendSigned({ devnet, account: trader, tx: { to: submit.to, data: submit.data, value: 0n } })
 */
export async function sendSigned({
  devnet,
  account,
  tx,
}: {
  devnet: SeededDevnet
  account: ReturnType<typeof privateKeyToAccount>
  tx: { to: Address; data: Hex; value?: bigint }
}): Promise<TransactionReceipt> {
  const wallet = createWalletClient({ account, chain: devnet.chain, transport: http(devnet.market.rpcUrl, { retryCount: 0 }) })
  const hash = await wallet.sendTransaction({
    ...tx,
    value: tx.value ?? 0n,
    gas: 8_000_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 0n,
  })
  return waitForReceipt({ publicClient: devnet.publicClient, hash })
}
