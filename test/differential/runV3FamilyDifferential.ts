import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, type Address, parseAbi } from 'viem'
import type { PoolInput } from '../../bindings/types.ts'
import { readUniswapV3Pool } from '../../src/adapters/state/readUniswapV3Pool.ts'
import { createUniswapV3Pool } from '../../src/devnet/createUniswapV3Pool.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createDifferentialLedger } from './createDifferentialLedger.ts'
import { randomPositions } from './randomPositions.ts'
import { randomSqrtPriceX96 } from './randomSqrtPriceX96.ts'
import { deployHarnessWithTokens, openPriceLimit } from './harnessContracts.ts'
import { runMeasuredConcentratedCases } from './runMeasuredConcentratedCases.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

/** A tier: the fee and spacing of a V3 factory tier, or (Slipstream) a spacing and its factory fee. */
export type V3FamilyTier = { fee: number; tickSpacing: number }

export type RunV3FamilyDifferentialParameters = {
  /** The kind under test: its pools are read with this DexId. */
  dex: 'UNIV3' | 'PANCAKE_V3' | 'AERODROME_CL'
  seed: number
  states: number
  tiers: readonly V3FamilyTier[]
  /** `slot0()` as the pool declares it (Pancake's feeProtocol is uint32, Slipstream has 6 fields). */
  slot0Signature: string
  /** Deploys the factory whose pools are tested. */
  deploy: (parameters: { devnet: Devnet }) => Promise<{ factory: Address }>
  /** Creates and initializes a pool; default: V3's `createPool(a, b, fee)` + `initialize`. */
  createPool?: (parameters: {
    devnet: Devnet
    factory: Address
    tokenA: Address
    tokenB: Address
    tier: V3FamilyTier
    sqrtPriceX96: bigint
  }) => Promise<{ pool: Address; token0: Address; token1: Address }>
  /**
   * Runs once per state after its positions are minted (the harness pays): e.g. moves the pool's
   * oracle so that a dynamic fee applies. Returns a label for the cases.
   */
  prepareState?: (parameters: { devnet: Devnet; pool: Address; harness: Address; harnessAbi: Abi; state: number }) => Promise<string>
  /** Extra assertions once every case ran (what `prepareState` must have exercised). */
  checkAfter?: () => void
  /** Reads the pool for the solver; default `readUniswapV3Pool` with `dex`. */
  readPool?: (parameters: { devnet: Devnet; pool: Address }) => Promise<PoolInput>
}

/**
 * Registers the differential test of a Uniswap V3-shaped pool (the published bytecode): random
 * states read by the adapter's reader, then `solver.simulate` against the pool's own swap.
 *
 * @example
 * runV3FamilyDifferential({ dex: 'UNIV3', seed: 3003, states: 80, tiers, slot0Signature, deploy: deployUniswapV3 })
 * // a vitest test is registered: 80 random UNIV3 states read by the adapter, solver.simulate against the pool's own swap
 */
export function runV3FamilyDifferential({
  dex,
  seed: SEED,
  states: STATES,
  tiers: TIERS,
  slot0Signature,
  deploy,
  createPool = ({ devnet, factory, tokenA, tokenB, tier, sqrtPriceX96 }) =>
    createUniswapV3Pool({ devnet, factory, tokenA, tokenB, fee: tier.fee, sqrtPriceX96 }),
  prepareState = async () => '',
  checkAfter = () => {},
  readPool = ({ devnet, pool }) => readUniswapV3Pool({ client: devnet.publicClient, pool, dex }),
}: RunV3FamilyDifferentialParameters): void {
  const TRADES_PER_STATE = 6
  const TIME_BUDGET_MS = 240_000
  const RECIPIENT: Address = '0x000000000000000000000000000000000000d1f3'
  const slot0Abi = parseAbi([slot0Signature]) as readonly unknown[] as Abi
  const session = useDifferentialSession()

  test(`${dex} pools pay exactly what the solver simulates`, { timeout: 900_000 }, async () => {
    const { devnet, prng, solver } = await session.start({ seed: SEED })

    const { harness, harnessAbi, tokens } = await deployHarnessWithTokens({ devnet, decimals: [6, 8, 18, 18] })
    const { factory } = await deploy({ devnet })

    const ledger = createDifferentialLedger({ protocol: dex })
    let base = await devnet.testClient.snapshot()
    const started = Date.now()
    for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
      base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
      const tier = TIERS[s % TIERS.length]
      const [tokenA, tokenB] = prng.pickTwo(tokens)
      const sqrtPriceX96 = randomSqrtPriceX96({ prng })
      const { pool, token0, token1 } = await createPool({ devnet, factory, tokenA, tokenB, tier, sqrtPriceX96 })
      const [, currentTick] = (await devnet.publicClient.readContract({
        address: pool,
        abi: slot0Abi,
        functionName: 'slot0',
      })) as readonly [bigint, number]
      for (const p of randomPositions({ prng, currentTick, tickSpacing: tier.tickSpacing })) {
        await writeContractAndWait({
          devnet,
          address: harness,
          abi: harnessAbi,
          functionName: 'mintV3',
          args: [pool, devnet.account, p.tickLower, p.tickUpper, p.liquidity, harness],
        })
      }
      const prepared = await prepareState({ devnet, pool, harness, harnessAbi, state: s })
      const input = await readPool({ devnet, pool })
      assert.equal(input.dex, dex)
      assert.equal(input.state.model, 'concentrated')
      await solver?.upsertPools([input])
      await runMeasuredConcentratedCases({
        devnet,
        prng,
        solver,
        ledger,
        input,
        trades: TRADES_PER_STATE,
        label: `seed=${SEED} state=${s} fee=${tier.fee}${prepared}`,
        poolId: input.id,
        measure: {
          pool,
          token0,
          token1,
          payer: harness,
          recipient: RECIPIENT,
          stateCall: { address: pool, abi: slot0Abi, functionName: 'slot0' },
        },
        send: (zeroForOne, amountIn) =>
          writeContractAndWait({
            devnet,
            address: harness,
            abi: harnessAbi,
            functionName: 'swapV3',
            throwOnRevert: false,
            args: [pool, RECIPIENT, zeroForOne, amountIn, openPriceLimit(zeroForOne), harness],
          }),
        tickAfter: (after) => (after.state as readonly [bigint, number])[1],
      })
    }
    console.log(ledger.summary())
    session.assertSolverMatchedChain({ ledger, minCases: 100 })
    checkAfter()
  })
}
