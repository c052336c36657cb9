import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { revertToSnapshot } from './revertToSnapshot.ts'
import { type Devnet, startDevnet } from './startDevnet.ts'

let devnet: Devnet

beforeAll(async () => {
  devnet = await startDevnet({})
})
afterAll(async () => {
  await devnet?.stop()
})

test('a revert drops the pending transactions of the future it undid, and hands back a fresh snapshot', async () => {
  const { testClient, publicClient, account } = devnet
  const snapshot = await testClient.snapshot()
  const blockBefore = await publicClient.getBlockNumber({ cacheTime: 0 })
  await testClient.setAutomine(false)
  try {
    await publicClient.request({ method: 'eth_sendTransaction' as 'eth_sendRawTransaction', params: [{ from: account, to: account, value: '0x1' }] as never })
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
