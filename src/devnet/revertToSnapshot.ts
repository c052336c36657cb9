import type { Chain, Hex, TestClient, Transport } from 'viem'

export type RevertToSnapshotParameters = { testClient: TestClient<'anvil', Transport, Chain>; id: Hex }

/**
 * Reverts to a snapshot, drops every pending transaction, and takes the snapshot again at once,
 * returning the new id: anvil consumes a snapshot (and every later one) when reverting to it, so
 * reusing a state needs a fresh id each time.
 *
 * Pending transactions belong to the future the revert undid. anvil can also keep a copy of a
 * transaction it already mined in its pool (seen after an automine stall: `txpool_status` shows it
 * pending once the revert has wound the sender's nonce back); left there, it would be mined again
 * ahead of the next transaction, which would then run on a state the caller did not snapshot.
 *
 * @example
 * let snapshot = await testClient.snapshot()
 * // ... mutate
 * snapshot = await revertToSnapshot({ testClient, id: snapshot })
 */
export async function revertToSnapshot({ testClient, id }: RevertToSnapshotParameters): Promise<Hex> {
  const ok: unknown = await testClient.request({ method: 'evm_revert', params: [id] })
  if (ok !== true) throw new Error(`evm_revert(${id}) failed`)
  await testClient.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never })
  return testClient.snapshot()
}
