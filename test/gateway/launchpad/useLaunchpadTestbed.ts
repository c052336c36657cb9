import type { Hex } from 'viem'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { revertToSnapshot } from '../../../src/devnet/revertToSnapshot.ts'
import { type LaunchpadTestbed, startLaunchpadTestbed } from './launchpadTestbed.ts'

/**
 * One launchpad testbed for one test file, each test starting from the chain as the testbed left
 * it (a snapshot taken once, reverted before every test), stopped after the file's `afterAll`
 * hooks. The returned object is filled in when the file's tests start; read it inside hooks and
 * tests only.
 *
 * @example
 * const t = useLaunchpadTestbed()
 * test('…', async () => {
 *   const { token, pool } = await t.launch(params) // → a fresh launch on the untouched testbed
 * })
 */
export function useLaunchpadTestbed(): LaunchpadTestbed {
  const testbed = {} as LaunchpadTestbed
  let snapshot: Hex
  beforeAll(async () => {
    Object.assign(testbed, await startLaunchpadTestbed())
    snapshot = await testbed.devnet.testClient.snapshot()
  })
  beforeEach(async () => {
    snapshot = await revertToSnapshot({ testClient: testbed.devnet.testClient, id: snapshot })
  })
  afterAll(async () => {
    await testbed.stop?.()
  })
  return testbed
}
