import { type Abi, type Address, numberToHex, parseAbi } from 'viem'
import { createAlgebraPool } from './createAlgebraPool.ts'
import { createUniswapV2Pair } from './createUniswapV2Pair.ts'
import { createUniswapV3Pool } from './createUniswapV3Pool.ts'
import { deployAlgebraIntegral } from './deployAlgebraIntegral.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { deployTestToken } from './deployTestToken.ts'
import { deployUniswapV2 } from './deployUniswapV2.ts'
import { deployUniswapV3 } from './deployUniswapV3.ts'
import { deployUniswapV4 } from './deployUniswapV4.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'
import { type UniswapV4PoolKey, uniswapV4PoolKey } from '../adapters/poolKeys/uniswapV4PoolKey.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'
import { BASE_BLOCK_TIME_SEC } from '../chains/base.ts'
import type { ChainConfig } from '../chains/ChainConfig.ts'

const erc20 = parseAbi([
  'function mint(address, uint256)',
  'function approve(address, uint256) returns (bool)',
  'function transfer(address, uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
])
const pairAbi = parseAbi(['function mint(address) returns (uint256)', 'function swap(uint256, uint256, address, bytes)'])
const MIN_SQRT_RATIO = 4295128739n
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n
const Q96 = 2n ** 96n
/** A V4 hooks address with no permission bits (valid only with a dynamic fee): a pool with hooks we must skip. */
export const FLAGLESS_HOOKS: Address = '0x000000000000000000000000000000000000c000'

export type SmallMarket = {
  chain: ChainConfig
  tokens: Address[]
  harness: Address
  v2Pair: Address
  v3Pool: Address
  alienPool: Address
  quickswapPool: Address
  hydrexPool: Address
  v4Key: UniswapV4PoolKey
  v4HookedKey: UniswapV4PoolKey
  factories: {
    v2: Address
    v3: Address
    alien: Address
    quickswap: Address
    hydrex: Address
    poolManager: Address
    basePluginFactory: Address
  }
  v4: { swapRouter: Address; liquidityRouter: Address }
  /** Exact-input swaps through each venue; they return what the recipient received. */
  swap: (venue: SwapVenue, zeroForOne: boolean, amountIn: bigint) => Promise<bigint>
  /** Adds liquidity to a concentrated pool around its price (or to the V2 pair). */
  addLiquidity: (venue: SwapVenue) => Promise<void>
  createV2Pair: (tokenA: Address, tokenB: Address) => Promise<Address>
  /** Pays `amountIn` into the V2 pair and asks for `amountOut`; true when the pair accepted. */
  swapV2: (zeroForOne: boolean, amountIn: bigint, amountOut: bigint) => Promise<boolean>
}

export type SwapVenue = 'v2' | 'v3' | 'alien' | 'quickswap' | 'hydrex' | 'v4'

const RECIPIENT: Address = '0x000000000000000000000000000000000000d1f3'

/**
 * Test support: a small market on a fresh devnet from the protocols' npm bytecode, one pool per
 * kind we have an adapter for (Pancake V3 needs a PoolDeployer we do not ship: not deployed), plus
 * a V4 pool with hooks that discovery must skip.
 *
 * @example
 * const market = await deploySmallMarket({ devnet })
 * // → { chain, tokens, harness, v2Pair, v3Pool, …, v4Key, v4HookedKey, factories }: one pool per kind
 */
export async function deploySmallMarket({ devnet }: { devnet: Devnet }): Promise<SmallMarket> {
  const write = (address: Address, abi: Abi | readonly unknown[], functionName: string, args: readonly unknown[]) =>
    writeContractAndWait({ devnet, address, abi, functionName, args })
  const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  const harness = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness })
  const harnessAbi = devnet.artifacts.PoolHarness.abi as Abi
  const { poolManager, swapRouter, liquidityRouter } = await deployUniswapV4({ devnet })
  const tokens: Address[] = []
  for (const [i, decimals] of [18, 6, 18].entries()) {
    const token = await deployTestToken({ devnet, name: `Token${i}`, symbol: `T${i}`, decimals })
    await write(token, erc20, 'mint', [harness, 2n ** 200n])
    await write(token, erc20, 'mint', [devnet.account, 2n ** 200n])
    for (const spender of [swapRouter, liquidityRouter]) await write(token, erc20, 'approve', [spender, 2n ** 256n - 1n])
    tokens.push(token)
  }
  const [a, b, c] = tokens

  const { factory: v2 } = await deployUniswapV2({ devnet })
  const createV2Pair = async (tokenA: Address, tokenB: Address) => {
    const { pair } = await createUniswapV2Pair({ devnet, factory: v2, tokenA, tokenB })
    await write(tokenA, erc20, 'transfer', [pair, 10n ** 24n])
    await write(tokenB, erc20, 'transfer', [pair, 3n * 10n ** 24n])
    await write(pair, pairAbi, 'mint', [devnet.account])
    return pair
  }
  const v2Pair = await createV2Pair(a, b)

  const { factory: v3 } = await deployUniswapV3({ devnet })
  const { pool: v3Pool } = await createUniswapV3Pool({ devnet, factory: v3, tokenA: a, tokenB: b, fee: 3000, sqrtPriceX96: Q96 })
  const { factory: alien } = await deployUniswapV3({ devnet })
  const { pool: alienPool } = await createUniswapV3Pool({ devnet, factory: alien, tokenA: b, tokenB: c, fee: 500, sqrtPriceX96: Q96 * 2n })

  const quick = await deployAlgebraIntegral({ devnet })
  const { pool: quickswapPool } = await createAlgebraPool({
    devnet,
    factory: quick.factory,
    tokenA: a,
    tokenB: c,
    sqrtPriceX96: Q96,
    tickSpacing: 60,
    fee: 500,
    pluginFactory: quick.basePluginFactory,
  })
  const hyd = await deployAlgebraIntegral({ devnet })
  const { pool: hydrexPool } = await createAlgebraPool({
    devnet,
    factory: hyd.factory,
    tokenA: b,
    tokenB: c,
    sqrtPriceX96: Q96,
    tickSpacing: 10,
    fee: 300,
  })

  const managerAbi = loadNpmArtifact({ name: 'PoolManager' }).abi as Abi
  const v4Key = uniswapV4PoolKey({ tokenA: a, tokenB: c, fee: 3000, tickSpacing: 60 })
  await write(poolManager, managerAbi, 'initialize', [v4Key, Q96])
  const v4HookedKey = uniswapV4PoolKey({ tokenA: a, tokenB: b, fee: 0x800000, tickSpacing: 60, hooks: FLAGLESS_HOOKS })
  await write(poolManager, managerAbi, 'initialize', [v4HookedKey, Q96])

  const tickOf = { v3: 0, alien: 13862, quickswap: 0, hydrex: 0, v4: 0 } // log1.0001(price) of each pool's start price
  const spacingOf = { v3: 60, alien: 10, quickswap: 60, hydrex: 10, v4: 60 }
  let round = 0
  const addLiquidity = async (venue: SwapVenue) => {
    round++
    if (venue === 'v2') {
      await write(a, erc20, 'transfer', [v2Pair, 10n ** 21n])
      await write(b, erc20, 'transfer', [v2Pair, 3n * 10n ** 21n])
      await write(v2Pair, pairAbi, 'mint', [devnet.account])
      return
    }
    const spacing = spacingOf[venue]
    const centre = Math.round(tickOf[venue] / spacing) * spacing
    const width = spacing * (10 + round * 7)
    const [lower, upper] = [centre - width, centre + width]
    const liquidity = 10n ** 21n * BigInt(round)
    if (venue === 'v3' || venue === 'alien') {
      await write(harness, harnessAbi, 'mintV3', [venue === 'v3' ? v3Pool : alienPool, devnet.account, lower, upper, liquidity, harness])
    } else if (venue === 'quickswap' || venue === 'hydrex') {
      await write(harness, harnessAbi, 'mintAlgebra', [
        venue === 'quickswap' ? quickswapPool : hydrexPool,
        devnet.account,
        lower,
        upper,
        liquidity,
        harness,
      ])
    } else {
      await write(liquidityRouter, loadNpmArtifact({ name: 'PoolModifyLiquidityTest' }).abi, 'modifyLiquidity', [
        v4Key,
        { tickLower: lower, tickUpper: upper, liquidityDelta: liquidity, salt: numberToHex(0, { size: 32 }) },
        '0x',
      ])
    }
  }
  for (const venue of ['v3', 'alien', 'quickswap', 'hydrex', 'v4'] as const) {
    await addLiquidity(venue)
    await addLiquidity(venue)
  }

  const balance = (token: Address, owner: Address) =>
    devnet.publicClient.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [owner] })
  const swap = async (venue: SwapVenue, zeroForOne: boolean, amountIn: bigint): Promise<bigint> => {
    const pairTokens: Record<SwapVenue, [Address, Address]> = {
      v2: sorted(a, b),
      v3: sorted(a, b),
      alien: sorted(b, c),
      quickswap: sorted(a, c),
      hydrex: sorted(b, c),
      v4: [v4Key.currency0, v4Key.currency1],
    }
    const [t0, t1] = pairTokens[venue]
    const tokenOut = zeroForOne ? t1 : t0
    const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
    const recipient = venue === 'v4' ? devnet.account : RECIPIENT
    const before = await balance(tokenOut, recipient)
    if (venue === 'v2') throw new Error('swap v2 with swapV2Exact')
    if (venue === 'v3' || venue === 'alien') {
      await write(harness, harnessAbi, 'swapV3', [venue === 'v3' ? v3Pool : alienPool, RECIPIENT, zeroForOne, amountIn, limit, harness])
    } else if (venue === 'quickswap' || venue === 'hydrex') {
      await write(harness, harnessAbi, 'swapAlgebra', [
        venue === 'quickswap' ? quickswapPool : hydrexPool,
        RECIPIENT,
        zeroForOne,
        amountIn,
        limit,
        harness,
      ])
    } else {
      await write(swapRouter, loadNpmArtifact({ name: 'PoolSwapTest' }).abi, 'swap', [
        v4Key,
        { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: limit },
        { takeClaims: false, settleUsingBurn: false },
        '0x',
      ])
    }
    return (await balance(tokenOut, recipient)) - before
  }

  const swapV2 = async (zeroForOne: boolean, amountIn: bigint, amountOut: bigint) => {
    const [t0, t1] = sorted(a, b)
    await write(zeroForOne ? t0 : t1, erc20, 'transfer', [v2Pair, amountIn])
    const receipt = await writeContractAndWait({
      devnet,
      address: v2Pair,
      abi: pairAbi,
      functionName: 'swap',
      throwOnRevert: false,
      args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, RECIPIENT, '0x'],
    })
    return receipt.status === 'success'
  }

  const chain: ChainConfig = {
    name: 'devnet',
    chainId: devnet.chain.id,
    blockTimeSec: BASE_BLOCK_TIME_SEC,
    weth,
    multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
    deployments: {
      UNIV2: { source: v2, fromBlock: 0n },
      UNIV3: { source: v3, fromBlock: 0n },
      ALIEN_BASE_V3: { source: alien, fromBlock: 0n },
      QUICKSWAP_V4: { source: quick.factory, fromBlock: 0n },
      HYDREX: { source: hyd.factory, fromBlock: 0n },
      UNIV4: { source: poolManager, fromBlock: 0n },
    },
    pools: [],
  }
  return {
    chain,
    tokens,
    harness,
    v2Pair,
    v3Pool,
    alienPool,
    quickswapPool,
    hydrexPool,
    v4Key,
    v4HookedKey,
    factories: { v2, v3, alien, quickswap: quick.factory, hydrex: hyd.factory, poolManager, basePluginFactory: quick.basePluginFactory },
    v4: { swapRouter, liquidityRouter },
    swap,
    addLiquidity,
    createV2Pair,
    swapV2,
  }
}

function sorted(x: Address, y: Address): [Address, Address] {
  return BigInt(x) < BigInt(y) ? [x, y] : [y, x]
}
