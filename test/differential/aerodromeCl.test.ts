import assert from 'node:assert/strict'
import type { Abi, Address } from 'viem'
import { readSlipstreamPool } from '../../src/adapters/state/readSlipstreamPool.ts'
import { createSlipstreamPool } from '../../src/devnet/createSlipstreamPool.ts'
import { deploySlipstream } from '../../src/devnet/deploySlipstream.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { openPriceLimit } from './harnessContracts.ts'
import { runV3FamilyDifferential } from './runV3FamilyDifferential.ts'

// Slipstream (AERODROME_CL): our stand-in CLPool (contracts/slipstream/), keyed by tick spacing,
// its fee from the factory's dynamic swap-fee module. Half the states first trade the pool away
// from its time-weighted tick over a few blocks, so the fee the next block pays carries a dynamic
// part read for that block (block override), not the base fee.
const SECONDS_AGO = 20
const pool = loadStandInArtifacts({ protocol: 'slipstream' }).CLPool
/** Fees read for the next block that differed from the pool's spacing fee (the dynamic part at work). */
let dynamicFees = 0

runV3FamilyDifferential({
  dex: 'AERODROME_CL',
  seed: Number(process.env.DIFF_SEED ?? 5005),
  states: Number(process.env.DIFF_AERODROME_CL_STATES ?? 80),
  tiers: [
    { fee: 100, tickSpacing: 1 },
    { fee: 500, tickSpacing: 50 },
    { fee: 500, tickSpacing: 100 },
    { fee: 3000, tickSpacing: 200 },
    { fee: 10000, tickSpacing: 2000 },
  ],
  slot0Signature: 'function slot0() view returns (uint160, int24, uint16, uint16, uint16, bool)',
  deploy: ({ devnet }) =>
    deploySlipstream({ devnet, swapFeeModule: { defaultScalingFactor: 200_000n, defaultFeeCap: 30_000, secondsAgo: SECONDS_AGO } }),
  createPool: ({ devnet, factory, tokenA, tokenB, tier, sqrtPriceX96 }) =>
    createSlipstreamPool({ devnet, factory, tokenA, tokenB, tickSpacing: tier.tickSpacing, sqrtPriceX96 }),
  prepareState: async ({ devnet, pool: address, harness, harnessAbi, state }) =>
    state % 2 === 0 ? '' : moveAwayFromTwap({ devnet, pool: address, harness, harnessAbi }),
  readPool: async ({ devnet, pool: address }) => {
    const latest = await devnet.publicClient.getBlock({ blockTag: 'latest' })
    const input = await readSlipstreamPool({
      client: devnet.publicClient,
      pool: address,
      blockNumber: latest.number,
      nextBlock: { number: latest.number + 1n, timestamp: latest.timestamp + 2n },
    })
    const spacingFee = { 1: 100, 50: 500, 100: 500, 200: 3000, 2000: 10000 }[
      input.state.model === 'concentrated' ? input.state.tickSpacing : 0
    ]
    if (input.state.model === 'concentrated' && input.state.feePips !== spacingFee) dynamicFees++
    return input
  },
  checkAfter: () => assert.ok(dynamicFees >= 5, `only ${dynamicFees} states priced a dynamic fee`),
})

/** Grows the oracle, then swaps a little one way over several blocks: the tick leaves its TWAP. */
async function moveAwayFromTwap({
  devnet,
  pool: address,
  harness,
  harnessAbi,
}: {
  devnet: Devnet
  pool: Address
  harness: Address
  harnessAbi: Abi
}): Promise<string> {
  await writeContractAndWait({ devnet, address, abi: pool.abi, functionName: 'increaseObservationCardinalityNext', args: [SECONDS_AGO] })
  for (let i = 0; i < SECONDS_AGO / 2 + 2; i++) {
    await writeContractAndWait({
      devnet,
      address: harness,
      abi: harnessAbi,
      functionName: 'swapV3',
      throwOnRevert: false,
      args: [address, harness, true, 10n ** 15n, openPriceLimit(true), harness],
    })
  }
  const fee = await devnet.publicClient.readContract({ address, abi: pool.abi, functionName: 'fee' })
  return ` movedFromTwap fee(now)=${fee}`
}
