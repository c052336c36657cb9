import { type Abi, type Address, type Hex, encodeAbiParameters, parseAbi, parseEther } from 'viem'
import { createAerodromePool } from '../../src/devnet/createAerodromePool.ts'
import { createAlgebraPool } from '../../src/devnet/createAlgebraPool.ts'
import { createSlipstreamPool } from '../../src/devnet/createSlipstreamPool.ts'
import { deployAerodrome } from '../../src/devnet/deployAerodrome.ts'
import { deployPancakeInfinity } from '../../src/devnet/deployPancakeInfinity.ts'
import { deployPancakeV2 } from '../../src/devnet/deployPancakeV2.ts'
import { deploySlipstream } from '../../src/devnet/deploySlipstream.ts'
import { loadContractArtifacts } from '../../src/artifacts/loadContractArtifacts.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { type PancakeInfinityPoolKey, pancakeInfinityPoolKey } from '../../src/adapters/poolKeys/pancakeInfinityPoolKey.ts'
import { createUniswapV2Pair } from '../../src/devnet/createUniswapV2Pair.ts'
import { createUniswapV3Pool } from '../../src/devnet/createUniswapV3Pool.ts'
import { deployAlgebraIntegral } from '../../src/devnet/deployAlgebraIntegral.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployPancakeV3 } from '../../src/devnet/deployPancakeV3.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { deployUniswapV2 } from '../../src/devnet/deployUniswapV2.ts'
import { deployUniswapV3 } from '../../src/devnet/deployUniswapV3.ts'
import { deployUniswapV4 } from '../../src/devnet/deployUniswapV4.ts'
import { loadNpmArtifact } from '../../src/devnet/loadNpmArtifact.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { uniswapV4PoolKeyAbi } from '../../src/adapters/poolKeys/uniswapV4PoolId.ts'
import { type UniswapV4PoolKey, uniswapV4PoolKey } from '../../src/adapters/poolKeys/uniswapV4PoolKey.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'

export const erc20Abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function mint(address, uint256)',
  'function approve(address, uint256) returns (bool)',
  'function transfer(address, uint256) returns (bool)',
  'function allowance(address, address) view returns (uint256)',
  'function nonces(address) view returns (uint256)',
  'function deposit() payable',
])
const pairAbi = parseAbi(['function mint(address) returns (uint256)'])

const Q96 = 2n ** 96n
const MAX_UINT = 2n ** 256n - 1n
const FULL_RANGE_60 = { lower: -887220, upper: 887220 }
const FULL_RANGE_10 = { lower: -887270, upper: 887270 }
const FULL_RANGE_50 = { lower: -887250, upper: 887250 }

/** Everything the router tests trade on: real protocol bytecode, our tokens, and the router. */
export type RouterMarket = {
  devnet: Devnet
  router: Address
  weth: Address
  /** Three 18-decimal TestERC20s; the devnet account holds plenty and has approved the router. */
  tokens: { a: Address; b: Address; c: Address }
  v2: { factory: Address; ab: Address; bc: Address; wethA: Address }
  v3: { factory: Address; ab3000: Address; bc500: Address; acNarrow: Address }
  /** PancakeSwap V3 (published PancakeV3Pool bytecode via our pool deployer): A/B at 0.25 %. */
  pancake: { factory: Address; ab2500: Address }
  algebra: { ab: Address; bcPlugin: Address }
  v4: { poolManager: Address; swapTest: Address; ab: UniswapV4PoolKey; nativeA: UniswapV4PoolKey; acNarrow: UniswapV4PoolKey }
  /** Aerodrome stand-ins: a stable A/B pool and a volatile B/C pool (factory fees 5 and 30 bps). */
  aerodrome: { factory: Address; abStable: Address; bcVolatile: Address }
  /** A Slipstream stand-in pool A/B at spacing 100, its fee from the dynamic module (an EIP-1167 clone). */
  slipstream: { factory: Address; ab100: Address }
  /** A PancakeSwap V2 stand-in pair A/B (25 bps). */
  pancakeV2: { factory: Address; ab: Address }
  /** PancakeSwap Infinity CL stand-ins: A/B (fee 2500, spacing 50, protocol fee 4000/2000) and native/A (3000, 60). */
  infinity: { vault: Address; clPoolManager: Address; testRouter: Address; ab: PancakeInfinityPoolKey; nativeA: PancakeInfinityPoolKey }
  harness: Address
}

/**
 * Deploys V2, V3, PancakeSwap V3, Algebra Integral and V4 from their npm bytecode, our stand-ins of
 * Aerodrome, Slipstream, PancakeSwap V2 and PancakeSwap Infinity CL, pools with liquidity on them,
 * and the router wired to all of them.
 *
 * @example
 * const market = await createRouterMarket({ devnet })
 * // → { devnet, router, weth, tokens: { a, b, c }, v2, v3, …}: every kind deployed, pools funded, router wired
 */
export async function createRouterMarket({ devnet }: { devnet: Devnet }): Promise<RouterMarket> {
  const me = devnet.account
  const write = (address: Address, abi: Abi | readonly unknown[], functionName: string, args: readonly unknown[], value?: bigint) =>
    writeContractAndWait({ devnet, address, abi, functionName, args, value })
  const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  await write(weth, erc20Abi, 'deposit', [], parseEther('2000'))
  // One after another: anvil numbers an unlocked account's transactions as they arrive, and
  // concurrent sends can draw the same nonce on a busy machine ("nonce too low").
  const deployed: Address[] = []
  for (const s of ['A', 'B', 'C']) deployed.push(await deployTestToken({ devnet, name: `Token ${s}`, symbol: s, decimals: 18 }))
  const [a, b, c] = deployed
  for (const t of [a, b, c]) await write(t, erc20Abi, 'mint', [me, 10n ** 30n])

  // V2: 1M : 2M for A/B, 1M : 1M for B/C, 1000 WETH : 2M A.
  const v2 = await deployUniswapV2({ devnet })
  const addV2 = async (x: Address, y: Address, ax: bigint, ay: bigint) => {
    const { pair } = await createUniswapV2Pair({ devnet, factory: v2.factory, tokenA: x, tokenB: y })
    await write(x, erc20Abi, 'transfer', [pair, ax])
    await write(y, erc20Abi, 'transfer', [pair, ay])
    await write(pair, pairAbi, 'mint', [me])
    return pair
  }
  const e24 = 10n ** 24n
  const v2ab = await addV2(a, b, e24, 2n * e24)
  const v2bc = await addV2(b, c, e24, e24)
  const v2wethA = await addV2(weth, a, parseEther('1000'), 2n * e24)

  // PoolHarness pays V3/Algebra mints by transferFrom(me).
  const harness = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness })
  const harnessAbi = devnet.artifacts.PoolHarness.abi
  for (const t of [a, b, c, weth]) await write(t, erc20Abi, 'approve', [harness, MAX_UINT])

  const v3 = await deployUniswapV3({ devnet })
  const { pool: ab3000 } = await createUniswapV3Pool({ devnet, factory: v3.factory, tokenA: a, tokenB: b, fee: 3000, sqrtPriceX96: Q96 })
  const { pool: bc500 } = await createUniswapV3Pool({ devnet, factory: v3.factory, tokenA: b, tokenB: c, fee: 500, sqrtPriceX96: Q96 })
  const { pool: acNarrow } = await createUniswapV3Pool({ devnet, factory: v3.factory, tokenA: a, tokenB: c, fee: 3000, sqrtPriceX96: Q96 })
  await write(harness, harnessAbi, 'mintV3', [ab3000, me, FULL_RANGE_60.lower, FULL_RANGE_60.upper, e24, me])
  await write(harness, harnessAbi, 'mintV3', [bc500, me, FULL_RANGE_10.lower, FULL_RANGE_10.upper, e24, me])
  // Liquidity only within ±60 ticks: a large swap runs out of it and stops at the price limit.
  await write(harness, harnessAbi, 'mintV3', [acNarrow, me, -60, 60, 10n ** 20n, me])

  // Liquidity up to ±1000 ticks and full range: large swaps cross initialized ticks.
  const pancake = await deployPancakeV3({ devnet })
  const { pool: pancakeAb2500 } = await createUniswapV3Pool({
    devnet,
    factory: pancake.factory,
    tokenA: a,
    tokenB: b,
    fee: 2500,
    sqrtPriceX96: Q96,
  })
  await write(harness, harnessAbi, 'mintV3', [pancakeAb2500, me, FULL_RANGE_50.lower, FULL_RANGE_50.upper, e24, me])
  await write(harness, harnessAbi, 'mintV3', [pancakeAb2500, me, -1000, 1000, 10n ** 23n, me])

  const algebra = await deployAlgebraIntegral({ devnet })
  const { pool: algebraAb } = await createAlgebraPool({
    devnet,
    factory: algebra.factory,
    tokenA: a,
    tokenB: b,
    sqrtPriceX96: Q96,
    tickSpacing: 60,
    fee: 500,
  })
  const { pool: algebraBcPlugin } = await createAlgebraPool({
    devnet,
    factory: algebra.factory,
    tokenA: b,
    tokenB: c,
    sqrtPriceX96: Q96,
    tickSpacing: 60,
    fee: 500,
    pluginFactory: algebra.basePluginFactory,
  })
  for (const pool of [algebraAb, algebraBcPlugin]) {
    await write(harness, harnessAbi, 'mintAlgebra', [pool, me, FULL_RANGE_60.lower, FULL_RANGE_60.upper, e24, me])
  }

  const v4 = await deployUniswapV4({ devnet })
  const managerAbi = loadNpmArtifact({ name: 'PoolManager' }).abi
  const liquidityAbi = loadNpmArtifact({ name: 'PoolModifyLiquidityTest' }).abi
  for (const t of [a, b, c]) {
    await write(t, erc20Abi, 'approve', [v4.liquidityRouter, MAX_UINT])
    await write(t, erc20Abi, 'approve', [v4.swapRouter, MAX_UINT])
  }
  const zeroSalt: Hex = `0x${'00'.repeat(32)}`
  const addV4 = async (key: UniswapV4PoolKey, lower: number, upper: number, liquidity: bigint, value?: bigint) => {
    await write(v4.poolManager, managerAbi, 'initialize', [key, Q96])
    await write(
      v4.liquidityRouter,
      liquidityAbi,
      'modifyLiquidity',
      [key, { tickLower: lower, tickUpper: upper, liquidityDelta: liquidity, salt: zeroSalt }, '0x'],
      value,
    )
  }
  const v4ab = uniswapV4PoolKey({ tokenA: a, tokenB: b, fee: 3000, tickSpacing: 60 })
  const v4nativeA = uniswapV4PoolKey({ tokenA: '0x0000000000000000000000000000000000000000', tokenB: a, fee: 3000, tickSpacing: 60 })
  const v4acNarrow = uniswapV4PoolKey({ tokenA: a, tokenB: c, fee: 3000, tickSpacing: 60 })
  await addV4(v4ab, FULL_RANGE_60.lower, FULL_RANGE_60.upper, e24)
  await addV4(v4nativeA, FULL_RANGE_60.lower, FULL_RANGE_60.upper, parseEther('500'), parseEther('501'))
  await addV4(v4acNarrow, -60, 60, 10n ** 20n)

  // Aerodrome: stable A/B (balanced), volatile B/C.
  const aerodrome = await deployAerodrome({ devnet })
  const aerodromePoolAbi = loadStandInArtifacts({ protocol: 'aerodrome' }).Pool.abi
  const addAerodrome = async (x: Address, y: Address, stable: boolean, ax: bigint, ay: bigint) => {
    const { pool } = await createAerodromePool({ devnet, factory: aerodrome.factory, tokenA: x, tokenB: y, stable })
    await write(x, erc20Abi, 'transfer', [pool, ax])
    await write(y, erc20Abi, 'transfer', [pool, ay])
    await write(pool, aerodromePoolAbi, 'mint', [me])
    return pool
  }
  const abStable = await addAerodrome(a, b, true, e24, e24)
  const bcVolatile = await addAerodrome(b, c, false, e24, 2n * e24)

  // Slipstream: A/B at spacing 100 with a dynamic fee module; full range plus ±1000 ticks.
  const slipstream = await deploySlipstream({
    devnet,
    swapFeeModule: { defaultScalingFactor: 1_000_000n, defaultFeeCap: 20_000, secondsAgo: 20 },
  })
  const { pool: slipstreamAb } = await createSlipstreamPool({
    devnet,
    factory: slipstream.factory,
    tokenA: a,
    tokenB: b,
    tickSpacing: 100,
    sqrtPriceX96: Q96,
  })
  await write(harness, harnessAbi, 'mintV3', [slipstreamAb, me, -887200, 887200, e24, me])
  await write(harness, harnessAbi, 'mintV3', [slipstreamAb, me, -1000, 1000, 10n ** 23n, me])

  const pancakeV2 = await deployPancakeV2({ devnet })
  const { pair: pancakeV2Ab } = await createUniswapV2Pair({ devnet, factory: pancakeV2.factory, tokenA: a, tokenB: b })
  await write(a, erc20Abi, 'transfer', [pancakeV2Ab, e24])
  await write(b, erc20Abi, 'transfer', [pancakeV2Ab, 2n * e24])
  await write(pancakeV2Ab, pairAbi, 'mint', [me])

  // PancakeSwap Infinity CL: A/B with a protocol fee above V4's cap, and a native-ETH pool.
  const infinity = await deployPancakeInfinity({ devnet })
  const { CLPoolManager, ProtocolFeeController } = loadStandInArtifacts({ protocol: 'pancake-infinity' })
  const { InfinityTestRouter } = loadContractArtifacts()
  for (const t of [a, b, c]) await write(t, erc20Abi, 'approve', [infinity.testRouter, MAX_UINT])
  const addInfinity = async (
    key: PancakeInfinityPoolKey,
    lower: number,
    upper: number,
    liquidity: bigint,
    protocolFee: number,
    value?: bigint,
  ) => {
    await write(infinity.clPoolManager, CLPoolManager.abi, 'initialize', [key, Q96])
    if (protocolFee > 0) await write(infinity.protocolFeeController, ProtocolFeeController.abi, 'setProtocolFee', [key, protocolFee])
    await write(
      infinity.testRouter,
      InfinityTestRouter.abi,
      'modifyLiquidity',
      [key, { tickLower: lower, tickUpper: upper, liquidityDelta: liquidity, salt: zeroSalt }],
      value,
    )
  }
  const infinityAb = pancakeInfinityPoolKey({ tokenA: a, tokenB: b, poolManager: infinity.clPoolManager, fee: 2500, tickSpacing: 50 })
  const infinityNativeA = pancakeInfinityPoolKey({
    tokenA: '0x0000000000000000000000000000000000000000',
    tokenB: a,
    poolManager: infinity.clPoolManager,
    fee: 3000,
    tickSpacing: 60,
  })
  await addInfinity(infinityAb, FULL_RANGE_50.lower, FULL_RANGE_50.upper, e24, (2000 << 12) | 4000)
  await addInfinity(infinityNativeA, FULL_RANGE_60.lower, FULL_RANGE_60.upper, parseEther('500'), 1000, parseEther('501'))

  const router = await deployRouter({
    devnet,
    weth,
    poolManager: v4.poolManager,
    v2Factory: v2.factory,
    v3Factory: v3.factory,
    infinityVault: infinity.vault,
    infinityClPoolManager: infinity.clPoolManager,
  })
  for (const t of [a, b, c, weth]) await write(t, erc20Abi, 'approve', [router, MAX_UINT])
  return {
    devnet,
    router,
    weth,
    tokens: { a, b, c },
    v2: { factory: v2.factory, ab: v2ab, bc: v2bc, wethA: v2wethA },
    v3: { factory: v3.factory, ab3000, bc500, acNarrow },
    pancake: { factory: pancake.factory, ab2500: pancakeAb2500 },
    algebra: { ab: algebraAb, bcPlugin: algebraBcPlugin },
    v4: { poolManager: v4.poolManager, swapTest: v4.swapRouter, ab: v4ab, nativeA: v4nativeA, acNarrow: v4acNarrow },
    aerodrome: { factory: aerodrome.factory, abStable, bcVolatile },
    slipstream: { factory: slipstream.factory, ab100: slipstreamAb },
    pancakeV2: { factory: pancakeV2.factory, ab: pancakeV2Ab },
    infinity: {
      vault: infinity.vault,
      clPoolManager: infinity.clPoolManager,
      testRouter: infinity.testRouter,
      ab: infinityAb,
      nativeA: infinityNativeA,
    },
    harness,
  }
}

/**
 * Gives each payee 1 wei of A, B, C and WETH, so that gas is recorded with the payees already
 * holding every token (no zero-to-nonzero balance write in the measured swap).
 */
export async function givePayeesEveryToken({ devnet, market, payees }: { devnet: Devnet; market: RouterMarket; payees: Address[] }) {
  for (const payee of payees) {
    for (const t of [market.tokens.a, market.tokens.b, market.tokens.c, market.weth]) {
      await writeContractAndWait({ devnet, address: t, abi: erc20Abi, functionName: 'transfer', args: [payee, 1n] })
    }
  }
}

/** abi.encode(PoolKey), the `univ4` leg's `inputs[0]`. */
export function encodePoolKey(key: UniswapV4PoolKey): Hex {
  return encodeAbiParameters(uniswapV4PoolKeyAbi, [key])
}
