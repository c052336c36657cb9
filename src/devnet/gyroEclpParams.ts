import type { GyroEclpDerived, GyroEclpParams } from '../adapters/state/GyroEclpParams.ts'

export type GyroEclpParamsParameters = {
  /** The price range of token 0 in token 1 (whole-token prices after rates), as decimal strings. */
  alpha: string
  beta: string
  /** The peg the ellipse is rotated to (token 0 in token 1), as a decimal string. */
  peg: string
  /** The stretch λ (1 is a circle), as a decimal string. */
  lambda: string
}

// Working precision: 60 decimals, far beyond the 38 the derived values keep.
const P = 10n ** 60n

/**
 * An E-CLP's parameters and derived values from its price range, peg and stretch, computed in
 * integers at 60 decimals ("E-CLP Mathematics", Gyroscope): the rotation (c, s) = (1, peg)/√(1+peg²)
 * rounded to 18 decimals; ζ(p) = λ(c·p − s)/(c + s·p); τ(p) = (ζ, 1)·√dSq/√(1+ζ²) with
 * dSq = c² + s² (the rounded rotation's square norm, as Gyroscope's derived values carry it); u = sc(τ(β)_x − τ(α)_x),
 * v = s²τ(β)_y + c²τ(α)_y, w = sc(τ(β)_y − τ(α)_y), z = c²τ(β)_x + s²τ(α)_x, each
 * rounded toward zero to 38 decimals. The pool checks them against the published limits.
 *
 * @example
 * const { params, derived } = gyroEclpParams({ alpha: '0.998', beta: '1.002', peg: '1', lambda: '4000' })
 * // params: { alpha: 998000000000000000n, beta: 1002000000000000000n, c: 707106781186547524n, s: 707106781186547524n, lambda: 4000000000000000000000n }
 * // derived.dSq: 99999999999999999886624093342106115200n (just under 1e38: the rounded rotation's square norm)
 */
export function gyroEclpParams({ alpha, beta, peg, lambda }: GyroEclpParamsParameters): {
  params: GyroEclpParams
  derived: GyroEclpDerived
} {
  const toP = (decimal: string) => {
    const [whole, fraction = ''] = decimal.split('.')
    if (fraction.length > 60) throw new Error(`gyroEclpParams: ${decimal} has more than 60 decimals`)
    return BigInt(whole + fraction.padEnd(60, '0'))
  }
  const mul = (a: bigint, b: bigint) => (a * b) / P
  const div = (a: bigint, b: bigint) => (a * P) / b
  const sqrt = (a: bigint) => isqrt(a * P)
  const pegP = toP(peg)
  const norm = sqrt(P + mul(pegP, pegP))
  // c and s are what the pool stores (18 decimals); the derived values are computed from them.
  const c18 = div(P, norm) / 10n ** 42n
  const s18 = div(pegP, norm) / 10n ** 42n
  const c = c18 * 10n ** 42n
  const s = s18 * 10n ** 42n
  const lambdaP = toP(lambda)
  const rootDSq = sqrt(mul(c, c) + mul(s, s))
  const tau = (price: bigint) => {
    const zeta = div(mul(lambdaP, mul(c, price) - s), c + mul(s, price))
    // Unit length in the rounded rotation's own metric: scaled by √dSq, as Gyroscope's values are.
    const n = div(sqrt(P + mul(zeta, zeta)), rootDSq)
    return { x: div(zeta, n), y: div(P, n) }
  }
  const ta = tau(toP(alpha))
  const tb = tau(toP(beta))
  const xp = (v: bigint) => v / 10n ** 22n
  return {
    params: { alpha: toP(alpha) / 10n ** 42n, beta: toP(beta) / 10n ** 42n, c: c18, s: s18, lambda: lambdaP / 10n ** 42n },
    derived: {
      tauAlpha: { x: xp(ta.x), y: xp(ta.y) },
      tauBeta: { x: xp(tb.x), y: xp(tb.y) },
      u: xp(mul(mul(s, c), tb.x - ta.x)),
      v: xp(mul(mul(s, s), tb.y) + mul(mul(c, c), ta.y)),
      w: xp(mul(mul(s, c), tb.y - ta.y)),
      z: xp(mul(mul(c, c), tb.x) + mul(mul(s, s), ta.x)),
      dSq: xp(mul(c, c) + mul(s, s)),
    },
  }
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n
  let x = BigInt(Math.floor(Math.sqrt(Number(n))))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x && x * x <= n && (x + 1n) * (x + 1n) > n) return x
    x = y
  }
}
