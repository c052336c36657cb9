import type { Hex } from 'viem'
import { calldataGas } from './calldataGas.ts'

/**
 * The router's gas outside the legs, calibrated against `SwapRouter` on the seeded devnet by
 * `test/e2e/executeQuotes.test.ts` (least squares over hundreds of executed quotes, see
 * docs/quote.md). Leg gas (per DEX kind, per crossing) is the solver's (`solver-rs/src/pools/registry.rs`).
 */
export const routerOverheadGas = {
  /** Every transaction. */
  intrinsic: 21_000,
  /**
   * One `swapExactIn`: dispatch, checks, pulling the input (and reading the router's balance
   * around the pull), paying the recipient, the event, net of refunds.
   */
  call: 38_200,
  /** Each route after the first: its loop, its checks, adding to the total. */
  extraRoute: 1_800,
  /** `nativeIn`: WETH.deposit of msg.value instead of transferFrom and the balance reads around it. */
  nativeIn: -2_800,
  /** `nativeOut`: WETH.withdraw and the ETH transfer instead of an ERC-20 transfer. */
  nativeOut: 9_600,
  /** A non-zero integrator fee: one more ERC-20 transfer. */
  integratorFee: 7_500,
  /**
   * Each leg: the router reads its balance of the leg's `tokenOut` before and after the leg (the
   * leg's output is what arrived, docs/route-legs.md). A router cost, so it is here and not in
   * the solver's per-kind figures.
   */
  perLeg: 2_000,
} as const

export type EstimateRouterOverheadGasParameters = {
  /** The `swapExactIn` calldata (its exact bytes, or a stand-in with the same shape). */
  data: Hex
  routes: number
  nativeIn: boolean
  nativeOut: boolean
  /** Whether an integrator fee is actually paid (a fee that floors to 0 is not transferred). */
  paysIntegratorFee: boolean
  /** Legs of all routes. */
  legs: number
}

/**
 * Gas of a `swapExactIn` transaction beyond the pools' own gas: intrinsic 21,000, the calldata,
 * the router's fixed cost, per-route and per-leg costs and the native / fee extras. A leg through a
 * pool an earlier leg used is cheaper by its kind's saving: the solver prices that in its legs' gas.
 *
 * @example
 * const overhead = estimateRouterOverheadGas({ data, routes: 2, legs: 3, nativeIn: false, nativeOut: true, paysIntegratorFee: false })
 * // → 76_600 + calldataGas(data): 21_000 + 38_200 + 1_800 + 3 × 2_000 + 9_600
 * const gasUnits = solverPlan.gasUnits + overhead
 */
export function estimateRouterOverheadGas({
  data,
  routes,
  legs,
  nativeIn,
  nativeOut,
  paysIntegratorFee,
}: EstimateRouterOverheadGasParameters): number {
  const g = routerOverheadGas
  return (
    g.intrinsic +
    calldataGas(data) +
    g.call +
    g.extraRoute * Math.max(0, routes - 1) +
    g.perLeg * legs +
    (nativeIn ? g.nativeIn : 0) +
    (nativeOut ? g.nativeOut : 0) +
    (paysIntegratorFee ? g.integratorFee : 0)
  )
}
