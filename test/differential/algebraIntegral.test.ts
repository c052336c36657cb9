import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, parseAbi, parseEventLogs } from 'viem'
import { createAlgebraPool } from '../../src/devnet/createAlgebraPool.ts'
import { deployAlgebraIntegral } from '../../src/devnet/deployAlgebraIntegral.ts'
import { readAlgebraPool } from '../../src/adapters/state/readAlgebraPool.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createDifferentialLedger } from './createDifferentialLedger.ts'
import { randomPositions } from './randomPositions.ts'
import { randomSqrtPriceX96 } from './randomSqrtPriceX96.ts'
import { deployHarnessWithTokens, openPriceLimit } from './harnessContracts.ts'
import { runMeasuredConcentratedCases } from './runMeasuredConcentratedCases.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

const SEED = Number(process.env.DIFF_SEED ?? 5005)
const STATES = Number(process.env.DIFF_ALGEBRA_STATES ?? 80)
const TRADES_PER_STATE = 6
const TIME_BUDGET_MS = 240_000
const RECIPIENT: Address = '0x000000000000000000000000000000000000d1f5'
const MIN_TICK = -887272
const MAX_TICK = 887272

const poolAbi = parseAbi([
  'function globalState() view returns (uint160 price, int24 tick, uint16 lastFee, uint8 pluginConfig, uint16 communityFee, bool unlocked)',
  'function ticks(int24) view returns (uint256 liquidityTotal, int128 liquidityDelta, int24 prevTick, int24 nextTick, uint256 outerFeeGrowth0Token, uint256 outerFeeGrowth1Token)',
])

const swapFeeAbi = parseAbi(['event SwapFee(address indexed sender, uint24 overrideFee, uint24 pluginFee)'])

const session = useDifferentialSession()

/** The ticks of the pool's linked list (an independent path to the same set as the tick tree). */
async function linkedListTicks(pool: Address): Promise<number[]> {
  // MIN_TICK and MAX_TICK are the list's sentinels, and real ticks too when a position uses them.
  const ticks: number[] = []
  for (let tick = MIN_TICK, guard = 0; guard < 100_000; guard++) {
    const [liquidityTotal, , , next] = await session.devnet.publicClient.readContract({
      address: pool,
      abi: poolAbi,
      functionName: 'ticks',
      args: [tick],
    })
    if (liquidityTotal > 0n) ticks.push(tick)
    if (tick === MAX_TICK) break
    tick = next
  }
  return ticks
}

test(
  'Algebra Integral pools (static fee and base plugin dynamic fee) pay exactly what the solver simulates',
  { timeout: 900_000 },
  async () => {
    const { devnet, prng, solver } = await session.start({ seed: SEED })

    const { harness, harnessAbi, tokens } = await deployHarnessWithTokens({ devnet, decimals: [6, 8, 18, 18] })
    const { factory, basePluginFactory } = await deployAlgebraIntegral({ devnet })

    const ledger = createDifferentialLedger({ protocol: 'QUICKSWAP_V4 (Algebra Integral 1.2.10)' })
    let feeChecks = 0
    const feeMismatches: string[] = []
    const fees = new Set<number>()
    let pluginStates = 0
    let base = await devnet.testClient.snapshot()
    const started = Date.now()
    for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
      base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
      const withPlugin = s % 2 === 1
      const [tokenA, tokenB] = prng.pickTwo(tokens)
      const tickSpacing = prng.chance(0.6) ? prng.pick([1, 10, 60, 200]) : prng.int(1, 500)
      const fee = prng.chance(0.6) ? prng.pick([100, 500, 3000, 10000]) : prng.int(0, 50_000)
      const { pool, token0, token1 } = await createAlgebraPool({
        devnet,
        factory,
        tokenA,
        tokenB,
        sqrtPriceX96: randomSqrtPriceX96({ prng }),
        tickSpacing,
        fee,
        pluginFactory: withPlugin ? basePluginFactory : undefined,
      })
      const [, currentTick] = await devnet.publicClient.readContract({ address: pool, abi: poolAbi, functionName: 'globalState' })
      for (const p of randomPositions({ prng, currentTick, tickSpacing })) {
        await writeContractAndWait({
          devnet,
          address: harness,
          abi: harnessAbi,
          functionName: 'mintAlgebra',
          args: [pool, devnet.account, p.tickLower, p.tickUpper, p.liquidity, harness],
        })
      }
      if (withPlugin) {
        pluginStates++
        // Move the price back and forth over time so the adaptive fee sees volatility.
        for (let w = 0; w < prng.int(0, 4); w++) {
          await devnet.testClient.increaseTime({ seconds: prng.int(1, 7200) })
          const zeroToOne = prng.chance(0.5)
          await writeContractAndWait({
            devnet,
            address: harness,
            abi: harnessAbi,
            functionName: 'swapAlgebra',
            throwOnRevert: false,
            args: [pool, harness, zeroToOne, prng.logBigint(1n, 10n ** 22n), openPriceLimit(zeroToOne), harness],
          })
        }
        await devnet.testClient.increaseTime({ seconds: prng.int(1, 600) })
        await devnet.testClient.mine({ blocks: 1 })
      }
      const { input } = await readAlgebraPool({ client: devnet.publicClient, pool })
      assert.equal(input.state.model, 'concentrated')
      if (input.state.model !== 'concentrated') return
      fees.add(input.state.feePips)
      assert.deepEqual(
        input.state.ticks.map(([t]) => t),
        await linkedListTicks(pool),
        'tick tree and linked list disagree',
      )
      await solver?.upsertPools([input])
      const feePips = input.state.feePips
      // The adaptive fee depends on block.timestamp: the swap is priced at the read block, so pin the
      // swap's block to the read block's timestamp (otherwise wall-clock drift moves the fee by a few pips).
      const { timestamp: readTimestamp } = await devnet.publicClient.getBlock({ blockTag: 'latest' })
      await runMeasuredConcentratedCases({
        devnet,
        prng,
        solver,
        ledger,
        input,
        trades: TRADES_PER_STATE,
        label: `seed=${SEED} state=${s} plugin=${withPlugin} spacing=${tickSpacing} feePips=${feePips}`,
        poolId: input.id,
        measure: {
          pool,
          token0,
          token1,
          payer: harness,
          recipient: RECIPIENT,
          stateCall: { address: pool, abi: poolAbi, functionName: 'globalState' },
        },
        send: async (zeroForOne, amountIn, before) => {
          await devnet.testClient.setNextBlockTimestamp({ timestamp: readTimestamp })
          const receipt = await writeContractAndWait({
            devnet,
            address: harness,
            abi: harnessAbi,
            functionName: 'swapAlgebra',
            throwOnRevert: false,
            args: [pool, RECIPIENT, zeroForOne, amountIn, openPriceLimit(zeroForOne), harness],
          })
          if (receipt.status === 'success') {
            // The fee charged: the plugin's beforeSwap override (+ plugin fee), announced in SwapFee,
            // else globalState.lastFee. (AlgebraBasePluginV1 overrides: lastFee stays stale.)
            const [swapFee] = parseEventLogs({
              abi: swapFeeAbi,
              logs: receipt.logs.filter((l) => l.address.toLowerCase() === pool.toLowerCase()),
            })
            const lastFee = (before.state as readonly [bigint, number, number])[2]
            const charged =
              swapFee && swapFee.args.overrideFee !== 0
                ? swapFee.args.overrideFee + swapFee.args.pluginFee
                : lastFee + (swapFee?.args.pluginFee ?? 0)
            feeChecks++
            if (charged !== feePips) feeMismatches.push(`state=${s} read feePips=${feePips} charged=${charged}`)
          }
          return receipt
        },
        tickAfter: (after) => (after.state as readonly [bigint, number])[1],
      })
    }
    console.log(
      `${ledger.summary()} | pluginStates=${pluginStates} feeChecks=${feeChecks} feeMismatches=${feeMismatches.length} distinctFees=${fees.size}`,
    )
    if (feeMismatches.length > 0) console.log(feeMismatches.slice(0, 12).join('\n'))
    assert.deepEqual(feeMismatches.slice(0, 5), [], 'the fee read before the swap is not the fee the swap was charged')
    session.assertSolverMatchedChain({ ledger, minCases: 100 })
  },
)
