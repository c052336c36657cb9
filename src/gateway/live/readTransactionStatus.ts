import { getAddress, type Hex, type PublicClient } from 'viem'
import { finalityOf } from '../http/finalityOf.ts'

/** The errors viem throws for a hash the node does not know. */
const NOT_FOUND = new Set(['TransactionReceiptNotFoundError', 'TransactionNotFoundError'])
const isNotFound = (error: unknown) => NOT_FOUND.has((error as { name?: string })?.name ?? '')

/**
 * A transaction's status read now from the chain: `success` or `reverted` once mined (with its
 * block, confirmations counted from the head, and finality against the node's `safe` and
 * `finalized` blocks), `pending` while the node knows it unmined, undefined when the node does
 * not know it. A node without the `safe`/`finalized` tags gives no block that finality: mined
 * transactions are then `unsafe` (never claimed final without the node saying so).
 *
 * @example
 * const status = await readTransactionStatus({ client, hash })
 * // → { status: 'success' | 'reverted', from, to, blockNumber, blockHash, confirmations, finality, gasUsed }, { status: 'pending', … } or undefined
 */
export async function readTransactionStatus({ client, hash }: { client: PublicClient; hash: Hex }) {
  const receipt = await client.getTransactionReceipt({ hash }).catch((error) => {
    if (isNotFound(error)) return undefined
    throw error
  })
  if (!receipt) {
    const pending = await client.getTransaction({ hash }).catch((error) => {
      if (isNotFound(error)) return undefined
      throw error
    })
    if (!pending) return undefined
    return {
      status: 'pending' as const,
      from: getAddress(pending.from),
      to: pending.to ? getAddress(pending.to) : null,
      blockNumber: null,
      blockHash: null,
      confirmations: 0,
      finality: null,
      gasUsed: null,
    }
  }
  const tag = (blockTag: 'safe' | 'finalized') =>
    client.getBlock({ blockTag }).then(
      (b) => Number(b.number ?? 0n),
      () => 0,
    )
  const [head, safe, finalized] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), tag('safe'), tag('finalized')])
  const block = Number(receipt.blockNumber)
  return {
    status: receipt.status === 'success' ? ('success' as const) : ('reverted' as const),
    from: getAddress(receipt.from),
    to: receipt.to ? getAddress(receipt.to) : null,
    blockNumber: block,
    blockHash: receipt.blockHash,
    confirmations: Math.max(0, Number(head) - block + 1),
    finality: finalityOf({ block, safe, finalized }),
    gasUsed: receipt.gasUsed.toString(),
  }
}
