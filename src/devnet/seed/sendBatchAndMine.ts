import type { Address, Hex } from 'viem'
import type { Devnet } from '../startDevnet.ts'

/** One transaction of a batch, sent from an unlocked anvil account. */
export type BatchCall = { to?: Address; data: Hex; value?: bigint; from?: Address; gas?: bigint; label: string }

export type SendBatchAndMineParameters = {
  devnet: Devnet
  calls: readonly BatchCall[]
  /** Most gas-limit summed into one block; the chain's block limit is 1e9. */
  maxGasPerBlock?: bigint
}

export type SendBatchAndMineReturnType = { transactions: number; blocks: number; gasUsed: bigint }

/**
 * Sends many transactions fast: automine off, every transaction submitted with an explicit nonce
 * (so none waits on another), then one `evm_mine` per chunk. A chunk's summed gas limits stay under
 * the block limit, because anvil silently drops a sender's later transactions once a block is full.
 * Every receipt is checked; any revert or missing transaction throws with its label. Transactions
 * of one sender execute in the order given.
 *
 * @example
 * await sendBatchAndMine({ devnet, calls: [{ to: token, data, label: 'mint USDC' }] })
 * // → { transactions: 1, blocks: 1, gasUsed }; throws naming 'mint USDC' if it reverted
 */
export async function sendBatchAndMine({
  devnet,
  calls,
  maxGasPerBlock = 900_000_000n,
}: SendBatchAndMineParameters): Promise<SendBatchAndMineReturnType> {
  const request = (method: string, params: unknown[]) => devnet.publicClient.request({ method: method as never, params: params as never })
  const nonces = new Map<string, number>()
  const chunks: BatchCall[][] = [[]]
  let chunkGas = 0n
  for (const call of calls) {
    const gas = call.gas ?? 3_000_000n
    if (chunkGas + gas > maxGasPerBlock && chunks.at(-1)!.length > 0) {
      chunks.push([])
      chunkGas = 0n
    }
    chunks.at(-1)!.push(call)
    chunkGas += gas
  }
  let gasUsed = 0n
  for (const from of new Set(calls.map((c) => (c.from ?? devnet.account).toLowerCase()))) {
    nonces.set(from, Number(await request('eth_getTransactionCount', [from, 'pending'])))
  }
  await request('evm_setAutomine', [false])
  let failed = false
  try {
    for (const chunk of chunks) {
      const hashes: Hex[] = []
      for (let i = 0; i < chunk.length; i += 64) {
        const sent = chunk.slice(i, i + 64).map((call) => {
          const from = (call.from ?? devnet.account).toLowerCase()
          const nonce = nonces.get(from)!
          nonces.set(from, nonce + 1)
          return { call, from, nonce }
        })
        // Nonces are assigned above in call order; sending may then run in parallel.
        hashes.push(
          ...(await Promise.all(
            sent.map(
              ({ call, from, nonce }) =>
                request('eth_sendTransaction', [
                  {
                    from,
                    to: call.to,
                    data: call.data,
                    value: call.value === undefined ? undefined : `0x${call.value.toString(16)}`,
                    gas: `0x${(call.gas ?? 3_000_000n).toString(16)}`,
                    nonce: `0x${nonce.toString(16)}`,
                    maxFeePerGas: '0x2540be400',
                    maxPriorityFeePerGas: '0x0',
                  },
                ]) as Promise<Hex>,
            ),
          )),
        )
      }
      await request('evm_mine', [])
      const receipts = (await request('eth_getBlockReceipts', ['latest'])) as { transactionHash: Hex; status: Hex; gasUsed: Hex }[]
      const byHash = new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]))
      for (const [i, hash] of hashes.entries()) {
        const receipt = byHash.get(hash.toLowerCase())
        if (!receipt)
          throw new Error(`batch: "${chunk[i].label}" (${hash}) was not mined; ${receipts.length}/${hashes.length} in the block`)
        if (receipt.status !== '0x1') throw new Error(`batch: "${chunk[i].label}" reverted (${hash})`)
        gasUsed += BigInt(receipt.gasUsed)
      }
    }
  } catch (error) {
    failed = true
    throw error
  } finally {
    // After a failure the chain is left as it is: a second error here would hide the first.
    await request('evm_setAutomine', [true]).catch((error: unknown) => {
      if (!failed) throw error
    })
  }
  return { transactions: calls.length, blocks: chunks.length, gasUsed }
}
