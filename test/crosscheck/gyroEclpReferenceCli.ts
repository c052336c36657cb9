import { createInterface } from 'node:readline'
import { gyroEclpParams } from '../../src/devnet/gyroEclpParams.ts'
import { gyroEclpSwapReference } from './gyroEclpReference.ts'

// The E-CLP reference for the Rust model's tests (solver-rs/src/pools/gyro_eclp/gyro_eclp_tests.rs),
// run with tsx: one JSON case per stdin line, one JSON answer per line. Integers are decimal strings.
//   {"derive": {alpha, beta, peg, lambda}} → {params: {alpha, beta, c, s, lambda}, derived: {tauAlphaX, …, dSq}}
//     (gyroEclpParams: the parameters a pool is deployed with)
//   {balances, scalingFactors, swapFee, params, derived, amountIn, tokenInIsToken0} → {out} or {reverts: true}
//     (gyroEclpSwapReference: Balancer's balancer-maths inside the V2 pool's scaling)
type Json = Record<string, unknown>

const lines = createInterface({ input: process.stdin })
const out: string[] = []
for await (const line of lines) {
  if (line.trim()) out.push(JSON.stringify(answer(JSON.parse(line) as Json)))
}
process.stdout.write(out.map((l) => `${l}\n`).join(''))

function answer(c: Json): Json {
  if (c.derive) {
    const { params, derived } = gyroEclpParams(c.derive as Parameters<typeof gyroEclpParams>[0])
    return {
      params: strings(params),
      derived: strings({
        tauAlphaX: derived.tauAlpha.x,
        tauAlphaY: derived.tauAlpha.y,
        tauBetaX: derived.tauBeta.x,
        tauBetaY: derived.tauBeta.y,
        u: derived.u,
        v: derived.v,
        w: derived.w,
        z: derived.z,
        dSq: derived.dSq,
      }),
    }
  }
  const big = (v: unknown) => BigInt(v as string)
  const p = c.params as Json
  const d = c.derived as Json
  const result = gyroEclpSwapReference({
    balances: [big((c.balances as string[])[0]), big((c.balances as string[])[1])],
    scalingFactors: [big((c.scalingFactors as string[])[0]), big((c.scalingFactors as string[])[1])],
    swapFee: big(c.swapFee),
    params: { alpha: big(p.alpha), beta: big(p.beta), c: big(p.c), s: big(p.s), lambda: big(p.lambda) },
    derived: {
      tauAlpha: { x: big(d.tauAlphaX), y: big(d.tauAlphaY) },
      tauBeta: { x: big(d.tauBetaX), y: big(d.tauBetaY) },
      u: big(d.u),
      v: big(d.v),
      w: big(d.w),
      z: big(d.z),
      dSq: big(d.dSq),
    },
    amountIn: big(c.amountIn),
    tokenInIsToken0: c.tokenInIsToken0 === true,
  })
  return result === undefined ? { reverts: true } : { out: String(result) }
}

function strings(values: Record<string, bigint>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]))
}
