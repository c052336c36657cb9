import { type Chain, formatTransactionReceipt, type Hash, type PublicClient, type TransactionReceipt, type Transport } from 'viem'

export type WaitForReceiptParameters = {
  publicClient: PublicClient<Transport, Chain>
  hash: Hash
  /** After this long without a receipt, kick with `evm_mine` (anvil's automine sometimes stalls). */
  kickAfterMs?: number
  timeoutMs?: number
}

/**
 * Waits for a receipt, polling tightly, and mines a block if automine left the transaction pending.
 *
 * @example
 * const receipt = await waitForReceipt({ publicClient, hash })
 * // → the formatted receipt; after 2 s pending it mines a block; an Error after 10 s
 */
export async function waitForReceipt({
  publicClient,
  hash,
  kickAfterMs = 2000,
  timeoutMs = 10_000,
}: WaitForReceiptParameters): Promise<TransactionReceipt> {
  const started = Date.now()
  let kicked = false
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    const receipt = await publicClient.request({ method: 'eth_getTransactionReceipt', params: [hash] })
    if (receipt) return formatTransactionReceipt(receipt)
    const waited = Date.now() - started
    if (waited > timeoutMs) {
      const tx = await publicClient.request({ method: 'eth_getTransactionByHash', params: [hash] })
      const pool = await publicClient.request({ method: 'txpool_status' as never, params: [] as never })
      throw new Error(`no receipt for ${hash} after ${timeoutMs} ms; tx=${JSON.stringify(tx)} txpool=${JSON.stringify(pool)}`)
    }
    if (!kicked && waited > kickAfterMs) {
      kicked = true
      await publicClient.request({ method: 'evm_mine' as never, params: [] as never })
    }
    await new Promise((r) => setTimeout(r, delay))
  }
}
