import { type Abi, type Address, encodeFunctionData, type Hex, maxUint256, parseAbi } from 'viem'
import { loadNpmArtifact } from '../../src/devnet/loadNpmArtifact.ts'
import type { MarketToken } from '../../src/devnet/seed/baseMarketTokens.ts'
import type { SeededPool } from '../../src/devnet/seed/DevnetDescription.ts'
import { type BatchCall, sendBatchAndMine } from '../../src/devnet/seed/sendBatchAndMine.ts'
import type { SeededDevnet } from '../../src/devnet/startSeededDevnet.ts'

const MIN_SQRT_RATIO = 4295128739n
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n
const erc20 = parseAbi(['function transfer(address, uint256) returns (bool)', 'function approve(address, uint256) returns (bool)'])
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function swap(uint256, uint256, address, bytes)',
])
/** What each change trades, in USD: small, so hundreds of rounds leave the market where it was. */
const TRADE_USD = 20

export type ChangePoolsInOneBlockParameters = {
  devnet: SeededDevnet
  pools: readonly SeededPool[]
  tokens: Record<string, { address: Address; token: MarketToken }>
  /** Round number: the trade direction alternates with it, so prices wander back. */
  round: number
}

/**
 * Bench support: one real exact-input swap on each of `pools` (V2 pair swap, V3/Pancake/AlienBase
 * and Algebra through PoolHarness, V4 through PoolSwapTest), all sent with automine off and mined
 * by one `evm_mine` (`sendBatchAndMine`), so they land in a single block.
 *
 * @example
 * await approveTraders({ devnet, tokens })
 * await changePoolsInOneBlock({ devnet, pools: chosen, tokens, round: 0 })
 * // one block mined holding a swap on each chosen pool
 */
export async function changePoolsInOneBlock({ devnet, pools, tokens, round }: ChangePoolsInOneBlockParameters): Promise<void> {
  const me = devnet.account
  const harness = devnet.market.helpers.poolHarness
  const harnessAbi = devnet.artifacts.PoolHarness.abi as Abi
  const bySymbol = new Map(Object.values(tokens).map((t) => [t.token.symbol, t.token]))
  const v2 = pools.filter((p) => p.dex === 'UNIV2')
  const reserves =
    v2.length === 0
      ? []
      : await devnet.publicClient.multicall({
          allowFailure: false,
          contracts: v2.map((p) => ({ address: p.address as Address, abi: pairAbi, functionName: 'getReserves' }) as const),
        })
  const calls: BatchCall[] = []
  for (const [i, pool] of pools.entries()) {
    const zeroForOne = (round + i) % 2 === 0
    const token = bySymbol.get(pool.symbols[zeroForOne ? 0 : 1])!
    const amountIn = (BigInt(Math.round((TRADE_USD / token.priceUsd) * 1e6)) * 10n ** BigInt(token.decimals)) / 10n ** 6n + 1n
    const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
    const label = `${pool.dex} ${pool.symbols.join('/')} change`
    if (pool.dex === 'UNIV2') {
      const [r0, r1] = reserves[v2.indexOf(pool)]
      const [rIn, rOut] = zeroForOne ? [r0, r1] : [r1, r0]
      // 99 % of the spot output: the 0.3 % fee and the price impact of a $20 trade fit inside.
      const amountOut = (amountIn * rOut * 99n) / (rIn * 100n)
      calls.push({
        to: pool.tokens[zeroForOne ? 0 : 1],
        gas: 100_000n,
        label: `${label} pay`,
        data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [pool.address as Address, amountIn] }),
      })
      calls.push({
        to: pool.address as Address,
        gas: 200_000n,
        label,
        data: encodeFunctionData({
          abi: pairAbi,
          functionName: 'swap',
          args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, me, '0x'],
        }),
      })
    } else if (pool.dex === 'UNIV4') {
      const key = {
        currency0: pool.currency0!,
        currency1: pool.currency1!,
        fee: pool.fee,
        tickSpacing: pool.tickSpacing,
        hooks: pool.hooks!,
      }
      calls.push({
        to: devnet.market.factories.UNIV4.swapRouter,
        gas: 1_000_000n,
        label,
        data: encodeFunctionData({
          abi: loadNpmArtifact({ name: 'PoolSwapTest' }).abi,
          functionName: 'swap',
          args: [
            key,
            { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: limit },
            { takeClaims: false, settleUsingBurn: false },
            '0x',
          ],
        }),
      })
    } else {
      const algebra = pool.dex === 'QUICKSWAP_V4' || pool.dex === 'HYDREX'
      calls.push({
        to: harness,
        gas: 1_000_000n,
        label,
        data: encodeFunctionData({
          abi: harnessAbi,
          functionName: algebra ? 'swapAlgebra' : 'swapV3',
          args: [pool.address, me, zeroForOne, amountIn, limit, me],
        }),
      })
    }
  }
  await sendBatchAndMine({ devnet, calls })
}

/**
 * Lets the devnet account pay PoolHarness and v4's PoolSwapTest with every token (once).
 *
 * @example
 * await approveTraders({ devnet, tokens })
 * // PoolHarness and PoolSwapTest may now spend every token of the devnet account (one block mined)
 */
export async function approveTraders({ devnet, tokens }: Pick<ChangePoolsInOneBlockParameters, 'devnet' | 'tokens'>): Promise<void> {
  const calls: BatchCall[] = []
  for (const { address, token } of Object.values(tokens)) {
    for (const spender of [devnet.market.helpers.poolHarness, devnet.market.factories.UNIV4.swapRouter]) {
      calls.push({
        to: address,
        label: `approve ${token.symbol}`,
        data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, maxUint256] }) as Hex,
      })
    }
  }
  await sendBatchAndMine({ devnet, calls })
}
