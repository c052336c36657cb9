// An E-CLP's parameters as the pool holds them: read by `readGyroECLPPool`, computed for the
// embedded chain's pools by `src/devnet/gyroEclpParams.ts`.

/** An E-CLP's parameters in 18 decimals (α, β: prices of token 0 in token 1; c, s: the rotation; λ: the stretch). */
export type GyroEclpParams = { alpha: bigint; beta: bigint; c: bigint; s: bigint; lambda: bigint }

/** The derived values in 38 decimals, as the pool's constructor takes them. */
export type GyroEclpDerived = {
  tauAlpha: { x: bigint; y: bigint }
  tauBeta: { x: bigint; y: bigint }
  u: bigint
  v: bigint
  w: bigint
  z: bigint
  dSq: bigint
}
