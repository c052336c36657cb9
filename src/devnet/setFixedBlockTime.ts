import type { Chain, PublicClient, TestClient, Transport } from 'viem'

export type SetFixedBlockTimeParameters = {
  publicClient: PublicClient<Transport, Chain>
  testClient: TestClient<'anvil', Transport, Chain>
  /** Seconds between consecutive blocks (Base: 2). */
  blockTimeSec: number
  /** Wall clock in Unix seconds; default now. */
  nowSec?: bigint
}

/**
 * Makes anvil stamp blocks like Base: one empty block at the wall clock (or one second after the
 * latest block, if that is later), then every block exactly `blockTimeSec` after its parent,
 * however fast blocks are mined. State that follows the clock (an Algebra adaptive fee, a
 * Slipstream dynamic fee) is then known for the next block, as on Base, instead of depending on
 * when anvil happens to mine. The jump to the wall clock gets a block of its own so that it is
 * already the head's time when anything reads the chain: a market started on a chain loaded from
 * an old saved state reads those fees for the head's time + `blockTimeSec`, and its first block
 * must be stamped exactly that (it was stamped at the wall clock, days later, so the first trade
 * through such a pool could pay other than its plan).
 *
 * @example
 * await setFixedBlockTime({ publicClient, testClient, blockTimeSec: 2 })
 * // one block mined at the wall clock; every later block stamped 2 s after its parent
 */
export async function setFixedBlockTime({
  publicClient,
  testClient,
  blockTimeSec,
  nowSec = BigInt(Math.floor(Date.now() / 1000)),
}: SetFixedBlockTimeParameters): Promise<void> {
  const latest = await publicClient.getBlock({ blockTag: 'latest' })
  const next = nowSec > latest.timestamp ? nowSec : latest.timestamp + 1n
  await testClient.setNextBlockTimestamp({ timestamp: next })
  await testClient.mine({ blocks: 1 })
  await testClient.setBlockTimestampInterval({ interval: blockTimeSec })
}
