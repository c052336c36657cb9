import type { Chain, Hex, TestClient, Transport } from 'viem'

export type RevertToSnapshotParameters = { testClient: TestClient<'anvil', Transport, Chain>; id: Hex }

/**
 * Reverts to a snapshot and takes it again at once, returning the new id: anvil consumes a snapshot
 * (and every later one) when reverting to it, so reusing a state needs a fresh id each time.
 *
 * @example
 * let snapshot = await testClient.snapshot()
 * // ... mutate
 * snapshot = await revertToSnapshot({ testClient, id: snapshot })
 */
export async function revertToSnapshot({ testClient, id }: RevertToSnapshotParameters): Promise<Hex> {
  const ok: unknown = await testClient.request({ method: 'evm_revert', params: [id] })
  if (ok !== true) throw new Error(`evm_revert(${id}) failed`)
  return testClient.snapshot()
}
