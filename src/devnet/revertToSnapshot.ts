import type { Chain, Hex, TestClient, Transport } from 'viem'

export type RevertToSnapshotParameters = {
  testClient: TestClient<'anvil', Transport, Chain>
  id: Hex
  /** How long to wait for the miner to settle its pool before reverting anyway. */
  settleTimeoutMs?: number
}

type PoolStatus = { pending: Hex; queued: Hex }

/**
 * Reverts to a snapshot, drops every pending transaction, and takes the snapshot again at once,
 * returning the new id: anvil consumes a snapshot (and every later one) when reverting to it, so
 * reusing a state needs a fresh id each time.
 *
 * With automine on, it first waits until the pool is empty. anvil stores a mined block (its
 * receipts are visible) before its node service prunes the block's transactions from the pool,
 * by sender and nonce, on its next turn. A revert inside that window leaves the prune pending:
 * run after the revert, it removes the caller's next transaction of the same sender and nonce
 * (it vanishes: no receipt, not pending), and before the drop it left the mined copy pending, to
 * be mined again ahead of that transaction. Waiting for the prune closes both.
 *
 * Pending transactions then belong to the future the revert undid (automine off: the caller's
 * own), and are dropped.
 *
 * @example
 * let snapshot = await testClient.snapshot()
 * // ... mutate
 * snapshot = await revertToSnapshot({ testClient, id: snapshot })
 */
export async function revertToSnapshot({ testClient, id, settleTimeoutMs = 5000 }: RevertToSnapshotParameters): Promise<Hex> {
  const automine = (await testClient.request({ method: 'anvil_getAutomine' as never, params: [] as never })) as boolean
  if (automine) await waitForEmptyPool(testClient, settleTimeoutMs)
  const ok: unknown = await testClient.request({ method: 'evm_revert', params: [id] })
  if (ok !== true) throw new Error(`evm_revert(${id}) failed`)
  await testClient.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never })
  return testClient.snapshot()
}

async function waitForEmptyPool(testClient: TestClient<'anvil', Transport, Chain>, timeoutMs: number): Promise<void> {
  const started = Date.now()
  for (let delay = 1; Date.now() - started < timeoutMs; delay = Math.min(delay * 2, 20)) {
    const status = (await testClient.request({ method: 'txpool_status' as never, params: [] as never })) as PoolStatus
    if (BigInt(status.pending) === 0n && BigInt(status.queued) === 0n) return
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}
