import type { CurvePoint } from './CurvePoint.ts'

/**
 * The upper concave hull of points sorted by strictly increasing `x`: the smallest concave
 * piecewise-linear function through the first and last point that is at or above every point.
 * Exact (bigint cross products). Concave samples come back unchanged; a sample below a chord (an
 * upstream whose answers are not concave there) is dropped.
 *
 * @example
 * upperConcaveHull([{ x: 0n, y: 0n }, { x: 1n, y: 1n }, { x: 2n, y: 3n }]) // [{0,0},{2,3}]: (1,1) lies under the chord
 */
export function upperConcaveHull(points: CurvePoint[]): CurvePoint[] {
  const hull: CurvePoint[] = []
  for (const p of points) {
    // Pop while the last turn is not strictly clockwise (a middle point on or under the chord).
    while (hull.length >= 2) {
      const a = hull[hull.length - 2]
      const b = hull[hull.length - 1]
      const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
      if (cross >= 0n) hull.pop()
      else break
    }
    hull.push(p)
  }
  return hull
}
