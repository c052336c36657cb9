import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, numberToHex } from 'viem'
import { readPancakeInfinityPool } from '../../src/adapters/state/readPancakeInfinityPool.ts'
import { deployPancakeInfinity } from '../../src/devnet/deployPancakeInfinity.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadContractArtifacts } from '../../src/artifacts/loadContractArtifacts.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { pancakeInfinityPoolId } from '../../src/adapters/poolKeys/pancakeInfinityPoolId.ts'
import { pancakeInfinityPoolKey } from '../../src/adapters/poolKeys/pancakeInfinityPoolKey.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createDifferentialLedger } from './createDifferentialLedger.ts'
import { openPriceLimit, testTokenAbi } from './harnessContracts.ts'
import { randomPositions } from './randomPositions.ts'
import { randomSqrtPriceX96 } from './randomSqrtPriceX96.ts'
import { runMeasuredConcentratedCases } from './runMeasuredConcentratedCases.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

// PANCAKE_INFINITY_CL: our stand-in CL pool manager and vault (contracts/pancake-infinity/), read
// through the manager's getters, swapped through the vault's lock. Half the states carry a
// protocol fee, up to Infinity's cap of 4,000 pips per direction (V4 stops at 1,000).
const SEED = Number(process.env.DIFF_SEED ?? 7007)
const STATES = Number(process.env.DIFF_INFINITY_STATES ?? 80)
const TRADES_PER_STATE = 6
const TIME_BUDGET_MS = 240_000
const INT128_MAX = 2n ** 127n - 1n
const RECIPIENT: Address = '0x000000000000000000000000000000000000d1f5'

const { CLPoolManager, ProtocolFeeController } = loadStandInArtifacts({ protocol: 'pancake-infinity' })
const { InfinityTestRouter } = loadContractArtifacts()
const session = useDifferentialSession()

test(
  'PANCAKE_INFINITY_CL hookless pools (lp fee + protocol fee up to 4000) pay exactly what the solver simulates',
  { timeout: 900_000 },
  async () => {
    const { devnet, prng, solver } = await session.start({ seed: SEED })
    const { vault, clPoolManager, protocolFeeController, testRouter } = await deployPancakeInfinity({ devnet })
    const tokens: Address[] = []
    for (const [i, d] of [6, 8, 18, 18].entries()) {
      const token = await deployTestToken({ devnet, name: `T${i}`, symbol: `T${i}`, decimals: d })
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, 2n ** 200n] })
      await writeContractAndWait({
        devnet,
        address: token,
        abi: testTokenAbi,
        functionName: 'approve',
        args: [testRouter, 2n ** 256n - 1n],
      })
      tokens.push(token)
    }

    const ledger = createDifferentialLedger({ protocol: 'PANCAKE_INFINITY_CL' })
    let withProtocolFee = 0
    let aboveV4Cap = 0
    let base = await devnet.testClient.snapshot()
    const started = Date.now()
    for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
      base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
      const [tokenA, tokenB] = prng.pickTwo(tokens)
      const fee = prng.chance(0.7) ? prng.pick([100, 500, 2500, 10000]) : prng.int(0, 100_000)
      const tickSpacing = prng.chance(0.7) ? prng.pick([1, 10, 50, 200]) : prng.int(1, 500)
      const key = pancakeInfinityPoolKey({ tokenA, tokenB, poolManager: clPoolManager, fee, tickSpacing })
      const poolId = pancakeInfinityPoolId({ key })
      await writeContractAndWait({
        devnet,
        address: clPoolManager,
        abi: CLPoolManager.abi,
        functionName: 'initialize',
        args: [key, randomSqrtPriceX96({ prng })],
      })
      if (prng.chance(0.5)) {
        const p0 = prng.chance(0.2) ? 0 : prng.int(1, 4000)
        const p1 = prng.chance(0.2) ? 0 : prng.int(1, 4000)
        await writeContractAndWait({
          devnet,
          address: protocolFeeController,
          abi: ProtocolFeeController.abi,
          functionName: 'setProtocolFee',
          args: [key, (p1 << 12) | p0],
        })
        withProtocolFee++
        if (p0 > 1000 || p1 > 1000) aboveV4Cap++
      }
      const [, currentTick] = (await devnet.publicClient.readContract({
        address: clPoolManager,
        abi: CLPoolManager.abi,
        functionName: 'getSlot0',
        args: [poolId],
      })) as readonly [bigint, number]
      for (const p of randomPositions({ prng, currentTick, tickSpacing })) {
        await writeContractAndWait({
          devnet,
          address: testRouter,
          abi: InfinityTestRouter.abi,
          functionName: 'modifyLiquidity',
          args: [key, { tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.liquidity, salt: numberToHex(0, { size: 32 }) }],
        })
      }
      const blockNumber = await devnet.publicClient.getBlockNumber({ cacheTime: 0 })
      const { input } = await readPancakeInfinityPool({ client: devnet.publicClient, poolManager: clPoolManager, poolId, blockNumber })
      assert.equal(input.state.model === 'concentrated' && input.state.feePips, fee)
      await solver?.upsertPools([input])
      await runMeasuredConcentratedCases({
        devnet,
        prng,
        solver,
        ledger,
        input,
        trades: TRADES_PER_STATE,
        maxAmountIn: INT128_MAX,
        label: `seed=${SEED} state=${s} fee=${fee} spacing=${tickSpacing} protocolFee=${input.state.model === 'concentrated' ? input.state.protocolFee : ''}`,
        poolId,
        measure: { pool: vault, token0: key.currency0, token1: key.currency1, payer: devnet.account, recipient: RECIPIENT },
        send: (zeroForOne, amountIn) =>
          writeContractAndWait({
            devnet,
            address: testRouter,
            abi: InfinityTestRouter.abi,
            functionName: 'swap',
            throwOnRevert: false,
            args: [key, { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: openPriceLimit(zeroForOne) }, RECIPIENT],
          }),
        tickAfter: async () => {
          const [, tick] = (await devnet.publicClient.readContract({
            address: clPoolManager,
            abi: CLPoolManager.abi,
            functionName: 'getSlot0',
            args: [poolId],
          })) as readonly [bigint, number]
          return tick
        },
      })
    }
    console.log(`${ledger.summary()} | statesWithProtocolFee=${withProtocolFee} aboveV4Cap=${aboveV4Cap}`)
    assert.ok(aboveV4Cap > 0, 'no state exercised a protocol fee above V4’s 1,000-pip cap')
    session.assertSolverMatchedChain({ ledger, minCases: 100 })
  },
)
