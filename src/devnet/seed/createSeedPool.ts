import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, numberToHex, parseAbi } from 'viem'
import { createAerodromePool } from '../createAerodromePool.ts'
import { createAlgebraPool } from '../createAlgebraPool.ts'
import { createSlipstreamPool } from '../createSlipstreamPool.ts'
import { createUniswapV2Pair } from '../createUniswapV2Pair.ts'
import { createUniswapV3Pool } from '../createUniswapV3Pool.ts'
import { loadNpmArtifact } from '../loadNpmArtifact.ts'
import { loadStandInArtifacts } from '../loadStandInArtifacts.ts'
import { pancakeInfinityPoolId } from '../../adapters/poolKeys/pancakeInfinityPoolId.ts'
import { pancakeInfinityPoolKey } from '../../adapters/poolKeys/pancakeInfinityPoolKey.ts'
import type { Devnet } from '../startDevnet.ts'
import { uniswapV4PoolId } from '../../adapters/poolKeys/uniswapV4PoolId.ts'
import { uniswapV4PoolKey } from '../../adapters/poolKeys/uniswapV4PoolKey.ts'
import { writeContractAndWait } from '../writeContractAndWait.ts'
import type { MarketPoolSpec } from './baseMarketPools.ts'
import type { MarketToken } from './baseMarketTokens.ts'
import type { SeededFactories, SeededPool } from './DevnetDescription.ts'
import { rawPrice } from './rawPrice.ts'
import type { BatchCall } from './sendBatchAndMine.ts'
import { type SeedPosition, seedPositions } from './seedPositions.ts'
import { sqrtPriceX96FromRawPrice } from './sqrtPriceX96FromRawPrice.ts'

const erc20Abi = parseAbi(['function transfer(address, uint256) returns (bool)'])
const v2PairAbi = parseAbi(['function mint(address to) returns (uint256)'])
const algebraPoolAbi = parseAbi(['function plugin() view returns (address)'])
const aerodromePoolAbi = parseAbi(['function mint(address to) returns (uint256)'])
/** Observations a Slipstream pool keeps: the fee module's dynamic part needs secondsAgo / 2 of them. */
const SLIPSTREAM_OBSERVATIONS = 30

export type CreateSeedPoolParameters = {
  devnet: Devnet
  spec: MarketPoolSpec
  tokens: Record<string, { address: Address; token: MarketToken }>
  factories: SeededFactories
  /** Pays for the liquidity (holds every token; has approved `harness` and the V4 liquidity router). */
  liquidityProvider: Address
  harness: Address
  /** This venue's relative price offset from the fair price (0.002 = +0.2 %). */
  offset: number
}

export type CreateSeedPoolReturnType = {
  pool: SeededPool
  /** The liquidity transactions, to send later in one batch. */
  liquidityCalls: BatchCall[]
}

/**
 * Creates and initializes one pool of the seeded market now, and returns the transactions that fill
 * it (V2 kinds and Aerodrome: both reserves then `mint`; concentrated kinds: four positions from
 * `seedPositions`). Fees that are pool settings (an Aerodrome custom fee, an Infinity protocol fee)
 * and Slipstream's oracle size are set now too.
 *
 * @example
 * const { pool, liquidityCalls } = await createSeedPool({ devnet, spec, tokens, factories, liquidityProvider, harness, offset: 0.001 })
 * // → pool: created and priced 0.1 % off the spec's price; liquidityCalls: its mints, to send in the seed's batch
 */
export async function createSeedPool({
  devnet,
  spec,
  tokens,
  factories,
  liquidityProvider,
  harness,
  offset,
}: CreateSeedPoolParameters): Promise<CreateSeedPoolReturnType> {
  const [a, b] = spec.pair.map((symbol) => {
    const entry = tokens[symbol]
    if (!entry) throw new Error(`seed pool ${spec.dex} ${spec.pair.join('/')}: unknown token ${symbol}`)
    return entry
  })
  const [t0, t1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a]
  const price = rawPrice({ token0: t0.token, token1: t1.token, offset })
  const sqrtPriceX96 = sqrtPriceX96FromRawPrice({ price })
  const capitalInToken1 = (spec.tvlUsd / t1.token.priceUsd) * 10 ** t1.token.decimals
  const pegged = t0.token.peg !== undefined && t0.token.peg === t1.token.peg
  const base = {
    dex: spec.dex,
    tokens: [t0.address, t1.address] as [Address, Address],
    symbols: [t0.token.symbol, t1.token.symbol] as [string, string],
    fee: spec.fee,
    tickSpacing: spec.tickSpacing,
  }
  const label = `${spec.dex} ${base.symbols.join('/')} ${spec.fee}`
  const positions = () => seedPositions({ price, tickSpacing: spec.tickSpacing, capitalInToken1, pegged })
  /** One liquidity call per seeded position: to the kind's minter (harness or test router), `data` its encoding of the position. */
  const liquidityCallsTo = (to: Address, data: (position: SeedPosition) => Hex) =>
    positions().map((p, i) => ({ from: liquidityProvider, to, gas: 2_000_000n, label: `${label} position ${i}`, data: data(p) }))

  // Reserves then `mint`, for the kinds whose pool takes what was sent to it.
  const reserveCalls = (pool: Address, amounts: bigint[]): BatchCall[] => [
    ...[t0, t1].map((t, i) => ({
      from: liquidityProvider,
      to: t.address,
      gas: 200_000n,
      label: `${label} reserve ${i}`,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pool, amounts[i]] }),
    })),
    {
      from: liquidityProvider,
      to: pool,
      gas: 1_000_000n,
      label: `${label} mint`,
      data: encodeFunctionData({ abi: v2PairAbi, functionName: 'mint', args: [liquidityProvider] }),
    },
  ]
  const halves = () => [BigInt(Math.floor(capitalInToken1 / 2 / price)), BigInt(Math.floor(capitalInToken1 / 2))]

  if (spec.dex === 'UNIV2' || spec.dex === 'PANCAKE_V2') {
    const factory = factories[spec.dex].factory
    const { pair } = await createUniswapV2Pair({ devnet, factory, tokenA: t0.address, tokenB: t1.address })
    return {
      pool: { ...base, address: pair, fee: spec.dex === 'UNIV2' ? 3000 : 2500, tickSpacing: 1 },
      liquidityCalls: reserveCalls(pair, halves()),
    }
  }

  if (spec.dex === 'AERODROME_V2LIKE') {
    const stable = spec.stable === true
    const { factory } = factories.AERODROME_V2LIKE
    const { pool } = await createAerodromePool({ devnet, factory, tokenA: t0.address, tokenB: t1.address, stable })
    if (spec.fee > 0) {
      const { abi } = loadStandInArtifacts({ protocol: 'aerodrome' }).PoolFactory
      await writeContractAndWait({ devnet, address: factory, abi, functionName: 'setCustomFee', args: [pool, BigInt(spec.fee / 100)] })
    }
    // A stable pool's first deposit must be equal in whole tokens (it is pegged: price 1, no offset).
    const whole = BigInt(Math.floor(spec.tvlUsd / 2 / t0.token.priceUsd))
    const amounts = stable ? [whole * 10n ** BigInt(t0.token.decimals), whole * 10n ** BigInt(t1.token.decimals)] : halves()
    return { pool: { ...base, address: pool, stable }, liquidityCalls: reserveCalls(pool, amounts) }
  }

  if (spec.dex === 'PANCAKE_INFINITY_CL') {
    const { poolManager, protocolFeeController, testRouter } = factories.PANCAKE_INFINITY_CL
    const { CLPoolManager, ProtocolFeeController, InfinityTestRouter } = loadStandInArtifacts({ protocol: 'pancake-infinity' })
    const key = pancakeInfinityPoolKey({
      tokenA: t0.address,
      tokenB: t1.address,
      poolManager,
      fee: spec.fee,
      tickSpacing: spec.tickSpacing,
    })
    await writeContractAndWait({
      devnet,
      address: poolManager,
      abi: CLPoolManager.abi,
      functionName: 'initialize',
      args: [key, sqrtPriceX96],
    })
    const protocolFee = spec.protocolFee ?? 0
    if (protocolFee > 0) {
      await writeContractAndWait({
        devnet,
        address: protocolFeeController,
        abi: ProtocolFeeController.abi,
        functionName: 'setProtocolFee',
        args: [key, protocolFee],
      })
    }
    const liquidityCalls = liquidityCallsTo(testRouter, (p) =>
      encodeFunctionData({
        abi: InfinityTestRouter.abi,
        functionName: 'modifyLiquidity',
        args: [key, { tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.liquidity, salt: numberToHex(0, { size: 32 }) }],
      }),
    )
    const pool = {
      ...base,
      address: pancakeInfinityPoolId({ key }),
      currency0: key.currency0,
      currency1: key.currency1,
      hooks: key.hooks,
      protocolFee,
    }
    return { pool, liquidityCalls }
  }

  if (spec.dex === 'UNIV4') {
    const { poolManager, liquidityRouter } = factories.UNIV4
    const key = uniswapV4PoolKey({ tokenA: t0.address, tokenB: t1.address, fee: spec.fee, tickSpacing: spec.tickSpacing })
    await writeContractAndWait({
      devnet,
      address: poolManager,
      abi: loadNpmArtifact({ name: 'PoolManager' }).abi,
      functionName: 'initialize',
      args: [key, sqrtPriceX96],
    })
    const liquidityAbi = loadNpmArtifact({ name: 'PoolModifyLiquidityTest' }).abi as Abi
    const liquidityCalls = liquidityCallsTo(liquidityRouter, (p) =>
      encodeFunctionData({
        abi: liquidityAbi,
        functionName: 'modifyLiquidity',
        args: [
          key,
          { tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.liquidity, salt: numberToHex(0, { size: 32 }) },
          '0x',
        ],
      }),
    )
    const pool = { ...base, address: uniswapV4PoolId({ key }), currency0: key.currency0, currency1: key.currency1, hooks: key.hooks }
    return { pool, liquidityCalls }
  }

  const harnessAbi = devnet.artifacts.PoolHarness.abi as Abi
  if (spec.dex === 'QUICKSWAP_V4' || spec.dex === 'HYDREX') {
    const { factory, basePluginFactory } = factories[spec.dex]
    const { pool } = await createAlgebraPool({
      devnet,
      factory,
      tokenA: t0.address,
      tokenB: t1.address,
      sqrtPriceX96,
      tickSpacing: spec.tickSpacing,
      fee: spec.fee,
      pluginFactory: basePluginFactory,
    })
    const plugin = await devnet.publicClient.readContract({ address: pool, abi: algebraPoolAbi, functionName: 'plugin' })
    const liquidityCalls = liquidityCallsTo(harness, (p) =>
      encodeFunctionData({
        abi: harnessAbi,
        functionName: 'mintAlgebra',
        args: [pool, liquidityProvider, p.tickLower, p.tickUpper, p.liquidity, liquidityProvider],
      }),
    )
    return { pool: { ...base, address: pool, plugin: getAddress(plugin) }, liquidityCalls }
  }

  let pool: Address
  let fee = spec.fee
  if (spec.dex === 'AERODROME_CL') {
    const { factory } = factories.AERODROME_CL
    ;({ pool } = await createSlipstreamPool({
      devnet,
      factory,
      tokenA: t0.address,
      tokenB: t1.address,
      tickSpacing: spec.tickSpacing,
      sqrtPriceX96,
    }))
    const { CLPool, CLFactory } = loadStandInArtifacts({ protocol: 'slipstream' })
    await writeContractAndWait({
      devnet,
      address: pool,
      abi: CLPool.abi,
      functionName: 'increaseObservationCardinalityNext',
      args: [SLIPSTREAM_OBSERVATIONS],
    })
    fee = Number(
      await devnet.publicClient.readContract({
        address: factory,
        abi: CLFactory.abi,
        functionName: 'tickSpacingToFee',
        args: [spec.tickSpacing],
      }),
    )
  } else {
    ;({ pool } = await createUniswapV3Pool({
      devnet,
      factory: factories[spec.dex].factory,
      tokenA: t0.address,
      tokenB: t1.address,
      fee: spec.fee,
      sqrtPriceX96,
    }))
  }
  const liquidityCalls = liquidityCallsTo(harness, (p) =>
    encodeFunctionData({
      abi: harnessAbi,
      functionName: 'mintV3',
      args: [pool, liquidityProvider, p.tickLower, p.tickUpper, p.liquidity, liquidityProvider],
    }),
  )
  return { pool: { ...base, address: pool, fee }, liquidityCalls }
}
