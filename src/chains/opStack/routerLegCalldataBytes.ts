import type { Address } from 'viem'
import { encodeSwapExactIn } from '../../router/encodeSwapExactIn.ts'
import type { RoutePlan } from '../../router/routePlanTypes.ts'

const A = '0x1111111111111111111111111111111111111111' as Address
const B = '0x2222222222222222222222222222222222222222' as Address
const C = '0x3333333333333333333333333333333333333333' as Address
const POOL = '0x4444444444444444444444444444444444444444' as Address
/** Amounts of typical width (18-decimal tokens): calldata words are fixed size, their zero bytes are not. */
const AMOUNT = '1234567890123456789'

/**
 * The calldata bytes one more leg adds to `swapExactIn` (our router's encoding, a `v3_direct` leg:
 * the direct-pool legs all take the same room): the difference between a one-leg and a two-leg
 * route. What the L1 data fee charges a route per leg in the solver's objective (the quote's own
 * fee is priced on its whole calldata).
 *
 * @example
 * routerLegCalldataBytes() // 320n
 */
export function routerLegCalldataBytes(): bigint {
  const leg = (tokenIn: Address, tokenOut: Address) => ({
    dex: 'UNIV3' as const,
    tokenIn,
    tokenOut,
    amountIn: AMOUNT,
    minOut: AMOUNT,
    poolId: POOL,
    data: { kind: 'v3_direct' as const, pool: POOL },
  })
  const plan = (legs: ReturnType<typeof leg>[]): RoutePlan => ({
    chainId: 8453,
    tokenIn: A,
    tokenOut: legs[legs.length - 1].tokenOut,
    amountIn: AMOUNT,
    expectedAmountOut: AMOUNT,
    minAmountOut: AMOUNT,
    slippageBps: 50,
    blockNumber: 1,
    routes: [{ amountIn: AMOUNT, legs }],
  })
  const size = (p: RoutePlan) => (encodeSwapExactIn({ plan: p, recipient: A, deadline: 2_000_000_000n }).data.length - 2) / 2
  return BigInt(size(plan([leg(A, B), leg(B, C)])) - size(plan([leg(A, B)])))
}
