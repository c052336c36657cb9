import { type Abi, type Address, parseAbi, zeroAddress } from 'viem'
import { loadNpmArtifact } from '../../src/devnet/loadNpmArtifact.ts'
import { loadContractArtifacts } from '../../src/artifacts/loadContractArtifacts.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import type { PancakeInfinityPoolKey } from '../../src/adapters/poolKeys/pancakeInfinityPoolKey.ts'
import type { UniswapV4PoolKey } from '../../src/adapters/poolKeys/uniswapV4PoolKey.ts'
import { openPriceLimit } from '../differential/harnessContracts.ts'
import type { RouterMarket } from './createRouterMarket.ts'

/** A singleton's exact-input swap to the price limit (a negative amountSpecified is exact input). */
const exactInput = (zeroForOne: boolean, amountIn: bigint) => ({
  zeroForOne,
  amountSpecified: -amountIn,
  sqrtPriceLimitX96: openPriceLimit(zeroForOne),
})
/** What a singleton paid out, from its packed BalanceDelta (amount0 in the high 128 bits, amount1 in the low). */
const deltaOut = (delta: bigint, zeroForOne: boolean) => BigInt.asIntN(128, zeroForOne ? delta : delta >> 128n)
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)'])

/** V2 exact-in output with a fee in bps, from the pair's current reserves. */
export async function quoteV2({
  market,
  pair,
  tokenIn,
  tokenOut,
  amountIn,
  feeBps,
}: {
  market: RouterMarket
  pair: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  feeBps: bigint
}): Promise<bigint> {
  const [r0, r1] = await market.devnet.publicClient.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves' })
  const [rIn, rOut] = BigInt(tokenIn) < BigInt(tokenOut) ? [r0, r1] : [r1, r0]
  const withFee = amountIn * (10_000n - feeBps)
  return (withFee * rOut) / (rIn * 10_000n + withFee)
}

/** The pool's own answer: eth_call of PoolHarness swapping exact input on a V3 or Algebra pool. */
export async function quoteV3Style({
  market,
  pool,
  tokenIn,
  tokenOut,
  amountIn,
  algebra = false,
}: {
  market: RouterMarket
  pool: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  algebra?: boolean
}): Promise<bigint> {
  const zeroForOne = BigInt(tokenIn) < BigInt(tokenOut)
  const { result } = await market.devnet.publicClient.simulateContract({
    account: market.devnet.account,
    address: market.harness,
    abi: market.devnet.artifacts.PoolHarness.abi,
    functionName: algebra ? 'swapAlgebra' : 'swapV3',
    args: [pool, market.devnet.account, zeroForOne, amountIn, openPriceLimit(zeroForOne), market.devnet.account],
  })
  const [amount0, amount1] = result as [bigint, bigint]
  return -(zeroForOne ? amount1 : amount0)
}

/** The PoolManager's own answer: eth_call of v4-core's PoolSwapTest, exact input. */
export async function quoteV4(swap: ManagerSwap<UniswapV4PoolKey>): Promise<bigint> {
  const { market, key, zeroForOne, amountIn } = swap
  return simulateManagerSwap(swap, {
    address: market.v4.swapTest,
    abi: loadNpmArtifact({ name: 'PoolSwapTest' }).abi,
    args: [key, exactInput(zeroForOne, amountIn), { takeClaims: false, settleUsingBurn: false }, '0x'],
  })
}

/** An Aerodrome pool's own answer: its `getAmountOut(amountIn, tokenIn)` view (Solidly math, current fee). */
export async function quoteAerodrome({
  market,
  pool,
  tokenIn,
  amountIn,
}: {
  market: RouterMarket
  pool: Address
  tokenIn: Address
  amountIn: bigint
}): Promise<bigint> {
  const { abi } = loadStandInArtifacts({ protocol: 'aerodrome' }).Pool
  return (await market.devnet.publicClient.readContract({
    address: pool,
    abi,
    functionName: 'getAmountOut',
    args: [amountIn, tokenIn],
  })) as bigint
}

/** The Infinity CL pool manager's own answer: eth_call of the test router swapping exact input through the vault's lock. */
export async function quoteInfinity(swap: ManagerSwap<PancakeInfinityPoolKey>): Promise<bigint> {
  const { market, key, zeroForOne, amountIn } = swap
  return simulateManagerSwap(swap, {
    address: market.infinity.testRouter,
    abi: loadContractArtifacts().InfinityTestRouter.abi,
    args: [key, exactInput(zeroForOne, amountIn), market.devnet.account],
  })
}

/** An exact-input swap of one pool on a singleton manager (Uniswap V4, PancakeSwap Infinity CL). */
type ManagerSwap<Key extends { currency0: Address }> = { market: RouterMarket; key: Key; zeroForOne: boolean; amountIn: bigint }

/**
 * A singleton manager's answer to `swap`: the `swap(...args)` of its test router at `address`,
 * eth_call'ed (with the input as value when it is the native currency), as the delta out.
 */
async function simulateManagerSwap(
  { market, key, zeroForOne, amountIn }: ManagerSwap<{ currency0: Address }>,
  { address, abi, args }: { address: Address; abi: Abi; args: readonly unknown[] },
): Promise<bigint> {
  const native = key.currency0 === zeroAddress && zeroForOne
  const { result } = await market.devnet.publicClient.simulateContract({
    account: market.devnet.account,
    address,
    abi,
    functionName: 'swap',
    args,
    value: native ? amountIn : undefined,
  })
  return deltaOut(result as bigint, zeroForOne)
}
