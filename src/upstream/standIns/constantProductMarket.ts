import type { Address } from 'viem'
import type { StandInMarket } from './StandInApi.ts'

export type StandInPool = { tokenA: Address; tokenB: Address; reserveA: bigint; reserveB: bigint; feeBps: number; gasUnits: bigint }

/**
 * Liquidity for a stand-in: constant-product pools (x·y = k, fee on the input), so its answers are
 * a concave function of the input, like a real router's. A pair with no pool has no route.
 * Quoting never changes the reserves (a stand-in prices, it does not trade).
 *
 * @example
 * const market = constantProductMarket({ pools: [{ tokenA: weth, tokenB: usdc, reserveA: 10n ** 21n, reserveB: 3n * 10n ** 12n, feeBps: 30, gasUnits: 150_000n }] })
 * await market({ tokenIn: weth, tokenOut: usdc, amountIn: 10n ** 18n }) // { amountOut: 2988…n, gasUnits: 150000n }
 */
export function constantProductMarket({ pools }: { pools: StandInPool[] }): StandInMarket {
  return async ({ tokenIn, tokenOut, amountIn }) => {
    const a = tokenIn.toLowerCase()
    const b = tokenOut.toLowerCase()
    const pool = pools.find(
      (p) =>
        (p.tokenA.toLowerCase() === a && p.tokenB.toLowerCase() === b) || (p.tokenA.toLowerCase() === b && p.tokenB.toLowerCase() === a),
    )
    if (!pool) return undefined
    const [reserveIn, reserveOut] = pool.tokenA.toLowerCase() === a ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA]
    const inWithFee = amountIn * BigInt(10_000 - pool.feeBps)
    const amountOut = (reserveOut * inWithFee) / (reserveIn * 10_000n + inWithFee)
    return amountOut > 0n ? { amountOut, gasUnits: pool.gasUnits } : undefined
  }
}
