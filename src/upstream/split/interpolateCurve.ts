import type { CurvePoint } from './CurvePoint.ts'

/**
 * The value at `x` of the piecewise-linear curve through `points` (sorted by increasing `x`),
 * rounded down: exact at a point, the chord between its neighbours elsewhere. For a concave
 * source the chord is at or below the true curve, so an interpolated output is never an
 * overstatement. `x` outside the points' range is `undefined`.
 *
 * @example
 * interpolateCurve([{ x: 0n, y: 0n }, { x: 10n, y: 25n }], 3n) // 7n (7.5 rounded down)
 */
export function interpolateCurve(points: CurvePoint[], x: bigint): bigint | undefined {
  for (let i = 0; i < points.length; i++) {
    const b = points[i]
    if (b.x === x) return b.y
    if (b.x > x) {
      if (i === 0) return undefined
      const a = points[i - 1]
      const num = (b.y - a.y) * (x - a.x)
      const den = b.x - a.x
      // Floor division for negative numerators too (net curves start below zero).
      const q = num / den
      return a.y + (num % den !== 0n && num < 0n ? q - 1n : q)
    }
  }
  return undefined
}
