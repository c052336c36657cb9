import assert from 'node:assert/strict'
import { test } from 'vitest'
import { revertToSnapshot } from './revertToSnapshot.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'

const devnet = useDevnet()

test('a revert drops the pending transactions of the future it undid, and hands back a fresh snapshot', async () => {
  const { testClient, publicClient, account } = devnet
  const snapshot = await testClient.snapshot()
  const blockBefore = await publicClient.getBlockNumber({ cacheTime: 0 })
  await testClient.setAutomine(false)
  try {
    await publicClient.request({
      method: 'eth_sendTransaction' as 'eth_sendRawTransaction',
      params: [{ from: account, to: account, value: '0x1' }] as never,
    })
    const pending = (await testClient.request({ method: 'txpool_status' as never, params: [] as never })) as { pending: string }
    assert.equal(BigInt(pending.pending), 1n, 'a transaction waits in the pool')
    const fresh = await revertToSnapshot({ testClient, id: snapshot })
    const after = (await testClient.request({ method: 'txpool_status' as never, params: [] as never })) as { pending: string }
    assert.equal(BigInt(after.pending), 0n, 'nothing left to be mined into the restored state')
    assert.notEqual(fresh, snapshot)
    await testClient.mine({ blocks: 1 })
    assert.equal(await publicClient.getBlockNumber({ cacheTime: 0 }), blockBefore + 1n)
    assert.equal((await publicClient.getBlock({ blockTag: 'latest' })).transactions.length, 0)
    assert.equal(await revertToSnapshot({ testClient, id: fresh }).then(() => true), true, 'the fresh id reverts too')
  } finally {
    await testClient.setAutomine(true)
  }
})

test('with automine on, a revert waits until the miner has emptied its pool (a late prune would remove the next transaction of the same nonce)', async () => {
  const { testClient, publicClient, account } = devnet
  const snapshot = await testClient.snapshot()
  const blockBefore = await publicClient.getBlockNumber({ cacheTime: 0 })
  const nonce = await publicClient.getTransactionCount({ address: account })
  const send = (n: number) =>
    publicClient.request({
      method: 'eth_sendTransaction' as 'eth_sendRawTransaction',
      params: [{ from: account, to: account, value: '0x1', nonce: `0x${n.toString(16)}` }] as never,
    })
  // A transaction one nonce ahead waits in the queue: the pool is not empty.
  await send(nonce + 1)
  const events: string[] = []
  const reverted = revertToSnapshot({ testClient, id: snapshot }).then((fresh) => {
    events.push('reverted')
    return fresh
  })
  await new Promise((resolve) => setTimeout(resolve, 300))
  assert.deepEqual(events, [], 'no revert while the pool holds a transaction')
  await send(nonce)
  await reverted
  assert.deepEqual(events, ['reverted'])
  assert.equal(await publicClient.getBlockNumber({ cacheTime: 0 }), blockBefore, 'both blocks undone')
  assert.equal(await publicClient.getTransactionCount({ address: account }), nonce)
})
