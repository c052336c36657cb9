import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, type Address, hexToBigInt, numberToHex, parseAbi } from 'viem'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { deployUniswapV4 } from '../../src/devnet/deployUniswapV4.ts'
import { loadNpmArtifact } from '../../src/devnet/loadNpmArtifact.ts'
import { readUniswapV4Pool } from '../../src/adapters/state/readUniswapV4Pool.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { uniswapV4PoolId } from '../../src/adapters/poolKeys/uniswapV4PoolId.ts'
import { uniswapV4PoolKey } from '../../src/adapters/poolKeys/uniswapV4PoolKey.ts'
import { uniswapV4StateSlot } from '../../src/adapters/poolKeys/uniswapV4StateSlot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createDifferentialLedger } from './createDifferentialLedger.ts'
import { openPriceLimit, testTokenAbi } from './harnessContracts.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'
import { randomPositions } from './randomPositions.ts'
import { randomSqrtPriceX96 } from './randomSqrtPriceX96.ts'
import { runMeasuredConcentratedCases } from './runMeasuredConcentratedCases.ts'

const SEED = Number(process.env.DIFF_SEED ?? 4004)
const STATES = Number(process.env.DIFF_V4_STATES ?? 80)
const TRADES_PER_STATE = 6
const TIME_BUDGET_MS = 240_000
const INT128_MAX = 2n ** 127n - 1n

const extsloadAbi = parseAbi(['function extsload(bytes32 slot) view returns (bytes32)'])

const session = useDifferentialSession()

test('UNIV4 hookless pools (lp fee + protocol fee) pay exactly what the solver simulates', { timeout: 900_000 }, async () => {
  const { devnet, prng, solver } = await session.start({ seed: SEED })

  const { poolManager, swapRouter, liquidityRouter } = await deployUniswapV4({ devnet })
  const managerAbi = loadNpmArtifact({ name: 'PoolManager' }).abi as Abi
  const swapAbi = loadNpmArtifact({ name: 'PoolSwapTest' }).abi as Abi
  const liquidityAbi = loadNpmArtifact({ name: 'PoolModifyLiquidityTest' }).abi as Abi
  await writeContractAndWait({
    devnet,
    address: poolManager,
    abi: managerAbi,
    functionName: 'setProtocolFeeController',
    args: [devnet.account],
  })
  const tokens: Address[] = []
  for (const [i, d] of [6, 8, 18, 18].entries()) {
    const token = await deployTestToken({ devnet, name: `T${i}`, symbol: `T${i}`, decimals: d })
    await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, 2n ** 200n] })
    for (const spender of [swapRouter, liquidityRouter]) {
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'approve', args: [spender, 2n ** 256n - 1n] })
    }
    tokens.push(token)
  }

  const ledger = createDifferentialLedger({ protocol: 'UNIV4' })
  let withProtocolFee = 0
  let base = await devnet.testClient.snapshot()
  const started = Date.now()
  for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
    base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
    const [tokenA, tokenB] = prng.pickTwo(tokens)
    const fee = prng.chance(0.7) ? prng.pick([100, 500, 3000, 10000]) : prng.int(0, 100_000)
    const tickSpacing = prng.chance(0.7) ? prng.pick([1, 10, 60, 200]) : prng.int(1, 500)
    const key = uniswapV4PoolKey({ tokenA, tokenB, fee, tickSpacing })
    const poolId = uniswapV4PoolId({ key })
    const sqrtPriceX96 = randomSqrtPriceX96({ prng })
    await writeContractAndWait({ devnet, address: poolManager, abi: managerAbi, functionName: 'initialize', args: [key, sqrtPriceX96] })
    if (prng.chance(0.5)) {
      // 12 bits per direction, each at most 1000 pips; sometimes one direction only.
      const p0 = prng.chance(0.2) ? 0 : prng.int(1, 1000)
      const p1 = prng.chance(0.2) ? 0 : prng.int(1, 1000)
      await writeContractAndWait({
        devnet,
        address: poolManager,
        abi: managerAbi,
        functionName: 'setProtocolFee',
        args: [key, (p1 << 12) | p0],
      })
      withProtocolFee++
    }
    const stateSlot = uniswapV4StateSlot({ poolId })
    const readSlot0 = async () =>
      hexToBigInt(
        await devnet.publicClient.readContract({
          address: poolManager,
          abi: extsloadAbi,
          functionName: 'extsload',
          args: [numberToHex(stateSlot, { size: 32 })],
        }),
      )
    const currentTick = Number(BigInt.asIntN(24, (await readSlot0()) >> 160n))
    for (const p of randomPositions({ prng, currentTick, tickSpacing })) {
      await writeContractAndWait({
        devnet,
        address: liquidityRouter,
        abi: liquidityAbi,
        functionName: 'modifyLiquidity',
        args: [
          key,
          { tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.liquidity, salt: numberToHex(0, { size: 32 }) },
          '0x',
        ],
      })
    }
    const input = await readUniswapV4Pool({ client: devnet.publicClient, poolManager, key })
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
      measure: { pool: poolManager, token0: key.currency0, token1: key.currency1, payer: devnet.account, recipient: devnet.account },
      send: (zeroForOne, amountIn) =>
        writeContractAndWait({
          devnet,
          address: swapRouter,
          abi: swapAbi,
          functionName: 'swap',
          throwOnRevert: false,
          args: [
            key,
            // Negative amountSpecified: exact input.
            { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: openPriceLimit(zeroForOne) },
            { takeClaims: false, settleUsingBurn: false },
            '0x',
          ],
        }),
      tickAfter: async () => Number(BigInt.asIntN(24, (await readSlot0()) >> 160n)),
    })
  }
  console.log(`${ledger.summary()} | statesWithProtocolFee=${withProtocolFee}`)
  assert.ok(withProtocolFee > 0, 'no state exercised the protocol fee')
  session.assertSolverMatchedChain({ ledger, minCases: 100 })
})
