import { GyroECLPMath } from '@balancer-labs/balancer-maths'
import type { GyroEclpDerived, GyroEclpParams } from '../../src/adapters/state/GyroEclpParams.ts'

const ONE = 10n ** 18n

export type GyroEclpSwapCase = {
  /** Raw balances in the Vault, token 0 then token 1. */
  balances: readonly [bigint, bigint]
  /** The pool's scaling factors: 1e18·10^(18−decimals), times the token's rate rounded down. */
  scalingFactors: readonly [bigint, bigint]
  /** 18-decimal fee on the raw input. */
  swapFee: bigint
  params: GyroEclpParams
  derived: GyroEclpDerived
  amountIn: bigint
  tokenInIsToken0: boolean
}

/**
 * What an E-CLP pool on the Balancer V2 Vault pays for `amountIn`, computed with Balancer's own
 * E-CLP math (`GyroECLPMath` of @balancer-labs/balancer-maths: the invariant with its error,
 * calcOutGivenIn) wrapped in the V2 pool's scaling as the published pool does it (balances
 * upscaled rounding down; the fee mulUp on the raw amount before upscaling; the output downscaled
 * rounding down); undefined where the pool reverts (the math throws, or pays a negative amount).
 *
 * @example
 * gyroEclpSwapReference({ balances: [10n ** 21n, 10n ** 21n], scalingFactors: [ONE, ONE], swapFee: 10n ** 14n, params, derived, amountIn: ONE, tokenInIsToken0: true })
 * // → 999…n
 */
export function gyroEclpSwapReference(c: GyroEclpSwapCase): bigint | undefined {
  const [f0, f1] = c.scalingFactors
  const upscaled = [(c.balances[0] * f0) / ONE, (c.balances[1] * f1) / ONE]
  const [fIn, fOut] = c.tokenInIsToken0 ? [f0, f1] : [f1, f0]
  try {
    const [invariant, err] = GyroECLPMath.calculateInvariantWithError(upscaled, c.params, c.derived)
    const product = c.amountIn * c.swapFee
    const feeAmount = product === 0n ? 0n : (product - 1n) / ONE + 1n
    const amount = ((c.amountIn - feeAmount) * fIn) / ONE
    const out = GyroECLPMath.calcOutGivenIn(upscaled, amount, c.tokenInIsToken0, c.params, c.derived, {
      x: invariant + 2n * err,
      y: invariant,
    })
    // The published pool's checked subtraction: a negative output reverts.
    if (out < 0n) return undefined
    return (out * ONE) / fOut
  } catch {
    return undefined
  }
}
