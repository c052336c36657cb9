import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createDevnetClients } from './createDevnetClients.ts'
import { defineDevnetChain } from './defineDevnetChain.ts'
import { setFixedBlockTime } from './setFixedBlockTime.ts'
import { startAnvil } from './startAnvil.ts'

// A market reads clock-driven fees (Algebra, Slipstream) for its head's timestamp + the block time:
// the chain's next block must be stamped exactly that, from the first block after the clock is set,
// also when the chain was loaded from a state whose last block is days old (the embedded chain's
// saved state).
test('after setFixedBlockTime the head carries the wall clock and the next block is the head + the block time', async () => {
  const anvil = await startAnvil({})
  try {
    const chain = defineDevnetChain({ url: anvil.url })
    const { publicClient, testClient } = createDevnetClients({
      chain,
      url: anvil.url,
      account: '0x0000000000000000000000000000000000000001',
    })
    await testClient.mine({ blocks: 1 })
    // A chain whose last block is three days behind the wall clock, as after loading an old saved state.
    const nowSec = BigInt(Math.floor(Date.now() / 1000)) + 3n * 86_400n

    await setFixedBlockTime({ publicClient, testClient, blockTimeSec: 2, nowSec })
    const head = await publicClient.getBlock({ blockTag: 'latest' })
    assert.equal(head.timestamp, nowSec, "the chain's clock caught up with the wall clock")
    for (let i = 1n; i <= 3n; i++) {
      await testClient.mine({ blocks: 1 })
      const next = await publicClient.getBlock({ blockTag: 'latest' })
      assert.equal(next.timestamp, head.timestamp + 2n * i, `block ${next.number} is stamped ${2n * i} s after the head the market read`)
    }
  } finally {
    await anvil.stop()
  }
})
