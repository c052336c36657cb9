import { type Abi, type Address, encodeFunctionData, getAddress, numberToHex, parseAbi } from 'viem'
import { createAlgebraPool } from '../createAlgebraPool.ts'
import { createUniswapV2Pair } from '../createUniswapV2Pair.ts'
import { createUniswapV3Pool } from '../createUniswapV3Pool.ts'
import { loadNpmArtifact } from '../loadNpmArtifact.ts'
import type { Devnet } from '../startDevnet.ts'
import { uniswapV4PoolId } from '../uniswapV4PoolId.ts'
import { uniswapV4PoolKey } from '../uniswapV4PoolKey.ts'
import { writeContractAndWait } from '../writeContractAndWait.ts'
import type { MarketPoolSpec } from './baseMarketPools.ts'
import type { MarketToken } from './baseMarketTokens.ts'
import type { SeededFactories, SeededPool } from './DevnetDescription.ts'
import { rawPrice } from './rawPrice.ts'
import type { BatchCall } from './sendBatchAndMine.ts'
import { seedPositions } from './seedPositions.ts'
import { sqrtPriceX96FromRawPrice } from './sqrtPriceX96FromRawPrice.ts'

const erc20Abi = parseAbi(['function transfer(address, uint256) returns (bool)'])
const v2PairAbi = parseAbi(['function mint(address to) returns (uint256)'])
const algebraPoolAbi = parseAbi(['function plugin() view returns (address)'])

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
 * it (V2: both reserves then `mint`; concentrated kinds: four positions from `seedPositions`).
 *
 * @example
 * const { pool, liquidityCalls } = await createSeedPool({ devnet, spec, tokens, factories, liquidityProvider, harness, offset: 0.001 })
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

  if (spec.dex === 'UNIV2') {
    const { pair } = await createUniswapV2Pair({ devnet, factory: factories.UNIV2.factory, tokenA: t0.address, tokenB: t1.address })
    const amount1 = capitalInToken1 / 2
    const amounts = [BigInt(Math.floor(amount1 / price)), BigInt(Math.floor(amount1))]
    const liquidityCalls: BatchCall[] = [
      ...[t0, t1].map((t, i) => ({
        from: liquidityProvider, to: t.address, gas: 200_000n, label: `${label} reserve ${i}`,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pair, amounts[i]] }),
      })),
      { from: liquidityProvider, to: pair, gas: 1_000_000n, label: `${label} mint`, data: encodeFunctionData({ abi: v2PairAbi, functionName: 'mint', args: [liquidityProvider] }) },
    ]
    return { pool: { ...base, address: pair, fee: 3000, tickSpacing: 1 }, liquidityCalls }
  }

  if (spec.dex === 'UNIV4') {
    const { poolManager, liquidityRouter } = factories.UNIV4
    const key = uniswapV4PoolKey({ tokenA: t0.address, tokenB: t1.address, fee: spec.fee, tickSpacing: spec.tickSpacing })
    await writeContractAndWait({ devnet, address: poolManager, abi: loadNpmArtifact({ name: 'PoolManager' }).abi, functionName: 'initialize', args: [key, sqrtPriceX96] })
    const liquidityAbi = loadNpmArtifact({ name: 'PoolModifyLiquidityTest' }).abi as Abi
    const liquidityCalls = positions().map((p, i) => ({
      from: liquidityProvider, to: liquidityRouter, gas: 2_000_000n, label: `${label} position ${i}`,
      data: encodeFunctionData({
        abi: liquidityAbi, functionName: 'modifyLiquidity',
        args: [key, { tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.liquidity, salt: numberToHex(0, { size: 32 }) }, '0x'],
      }),
    }))
    const pool = { ...base, address: uniswapV4PoolId({ key }), currency0: key.currency0, currency1: key.currency1, hooks: key.hooks }
    return { pool, liquidityCalls }
  }

  const harnessAbi = devnet.artifacts.PoolHarness.abi as Abi
  if (spec.dex === 'QUICKSWAP_V4' || spec.dex === 'HYDREX') {
    const { factory, basePluginFactory } = factories[spec.dex]
    const { pool } = await createAlgebraPool({
      devnet, factory, tokenA: t0.address, tokenB: t1.address, sqrtPriceX96, tickSpacing: spec.tickSpacing, fee: spec.fee, pluginFactory: basePluginFactory,
    })
    const plugin = await devnet.publicClient.readContract({ address: pool, abi: algebraPoolAbi, functionName: 'plugin' })
    const liquidityCalls = positions().map((p, i) => ({
      from: liquidityProvider, to: harness, gas: 2_000_000n, label: `${label} position ${i}`,
      data: encodeFunctionData({ abi: harnessAbi, functionName: 'mintAlgebra', args: [pool, liquidityProvider, p.tickLower, p.tickUpper, p.liquidity, liquidityProvider] }),
    }))
    return { pool: { ...base, address: pool, plugin: getAddress(plugin) }, liquidityCalls }
  }

  const factory = factories[spec.dex].factory
  const { pool } = await createUniswapV3Pool({ devnet, factory, tokenA: t0.address, tokenB: t1.address, fee: spec.fee, sqrtPriceX96 })
  const liquidityCalls = positions().map((p, i) => ({
    from: liquidityProvider, to: harness, gas: 2_000_000n, label: `${label} position ${i}`,
    data: encodeFunctionData({ abi: harnessAbi, functionName: 'mintV3', args: [pool, liquidityProvider, p.tickLower, p.tickUpper, p.liquidity, liquidityProvider] }),
  }))
  return { pool: { ...base, address: pool }, liquidityCalls }
}
