import type { Abi, Address } from 'viem'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import type { Prng } from './createPrng.ts'

/**
 * Starts a random A ramp on a Curve pool (any template: `A()`, `ramp_A` by the factory's admin, the
 * devnet account) a day after the chain's last block, up or down by 2 to 10 times over 1 to 7
 * days, and mines a block somewhere inside it; false when the pool refused the ramp.
 *
 * @example
 * if (await rampCurveAmplification({ devnet, prng, pool, abi })) seen.ramping++
 */
export async function rampCurveAmplification({
  devnet,
  prng,
  pool,
  abi,
}: {
  devnet: Devnet
  prng: Prng
  pool: Address
  abi: Abi
}): Promise<boolean> {
  const now = (await devnet.publicClient.getBlock({ blockTag: 'latest' })).timestamp
  await devnet.testClient.setNextBlockTimestamp({ timestamp: now + 86_401n })
  const current = (await devnet.publicClient.readContract({ address: pool, abi, functionName: 'A', args: [] })) as bigint
  const target = prng.chance(0.5) ? current * BigInt(prng.int(2, 10)) : current / BigInt(prng.int(2, 10)) + 1n
  const duration = BigInt(prng.int(86_400, 7 * 86_400))
  const ramp = await writeContractAndWait({
    devnet,
    address: pool,
    abi,
    functionName: 'ramp_A',
    args: [target < 1_000_000n ? target : 999_999n, now + 86_401n + duration],
    throwOnRevert: false,
  })
  if (ramp.status !== 'success') return false
  await devnet.testClient.setNextBlockTimestamp({ timestamp: now + 86_401n + BigInt(prng.int(1, Number(duration) - 100)) })
  await devnet.testClient.mine({ blocks: 1 })
  return true
}
