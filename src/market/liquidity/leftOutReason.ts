import type { PoolInput } from '../../../bindings/types.ts'
import { poolDepthWei } from './poolDepthWei.ts'

export type LeftOutReasonParameters = {
  pool: PoolInput
  /** Lowercase addresses of tokens never routed through. */
  denied: ReadonlySet<string>
  /** Token prices in WETH (`tokenPricesInWeth`). */
  prices: ReadonlyMap<string, bigint>
  /** Depth below this many wei of WETH leaves the pool out (0: no floor). */
  minLiquidityWei: bigint
}

/**
 * Why a pool read from the chain stays out of the solver, or undefined when it goes in: a token on
 * the deny list (fee-on-transfer, rebasing, or unwanted: the solver's exact math would misprice
 * it), or a depth (`poolDepthWei`) below the floor, or no price to value it by. Sampled venues
 * have no reserves and pass the floor.
 *
 * @example
 * leftOutReason({ pool, denied: new Set(), prices, minLiquidityWei: 10n ** 18n }) // 'liquidity 12 wei of WETH is below the floor of 1000000000000000000'
 */
export function leftOutReason({ pool, denied, prices, minLiquidityWei }: LeftOutReasonParameters): string | undefined {
  const deniedToken = pool.tokens.map((t) => t.toLowerCase()).find((t) => denied.has(t))
  if (deniedToken) return `token ${deniedToken} is on the deny list`
  if (minLiquidityWei === 0n || pool.state.model === 'sampled') return undefined
  const depth = poolDepthWei({ pool, prices })
  if (depth === undefined) return 'no pool above the liquidity floor joins its tokens to WETH: its depth cannot be valued'
  if (depth < minLiquidityWei) return `liquidity ${depth} wei of WETH is below the floor of ${minLiquidityWei}`
  return undefined
}
