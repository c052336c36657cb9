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
 * Makes anvil stamp blocks like Base: the next block at the wall clock (or one second after the
 * latest block, if that is later), then every block exactly `blockTimeSec` after its parent,
 * however fast blocks are mined. State that follows the clock (an Algebra adaptive fee) is then
 * known for the next block, as on Base, instead of depending on when anvil happens to mine.
 *
 * @example
 * await setFixedBlockTime({ publicClient, testClient, blockTimeSec: 2 })
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
  await testClient.setBlockTimestampInterval({ interval: blockTimeSec })
}
