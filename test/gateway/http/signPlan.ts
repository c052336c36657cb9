import { type Hex, type PublicClient, type TransactionReceipt } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** The transaction of a plan as the gateway answers it. */
export type PlanTx = { chain_id: number; from: string; to: string; data: string; value: string; gas: string }

/**
 * What a wallet does with a plan: signs its transaction locally with its own key (no node
 * signing), broadcasts the raw transaction and waits for the receipt.
 *
 * @example
 * const receipt = await signAndSend({ client, privateKey, tx: plan.tx })
 * // → the receipt of plan.tx, signed locally with privateKey and mined
 */
export async function signAndSend({
  client,
  privateKey,
  tx,
}: {
  client: PublicClient
  privateKey: Hex
  tx: PlanTx
}): Promise<TransactionReceipt> {
  const account = privateKeyToAccount(privateKey)
  if (account.address.toLowerCase() !== tx.from.toLowerCase()) throw new Error(`the plan is for ${tx.from}, not ${account.address}`)
  const [nonce, fees] = await Promise.all([
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ])
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: tx.chain_id,
    nonce,
    to: tx.to as Hex,
    data: tx.data as Hex,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
    maxFeePerGas: fees.maxFeePerGas! * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas!,
  })
  const hash = await client.sendRawTransaction({ serializedTransaction: raw })
  return client.waitForTransactionReceipt({ hash, pollingInterval: 100 })
}
