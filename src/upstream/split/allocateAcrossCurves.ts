import type { CurvePoint } from './CurvePoint.ts'
import { upperConcaveHull } from './upperConcaveHull.ts'

export type SourceCurve = {
  id: string
  /**
   * The source's net output (after its gas) at sampled inputs, sorted by increasing `x`, starting
   * with `{x: 0, y: -fixedCost}`: what using the source at all costs (its gas at the smallest size).
   * Not using a source is worth 0.
   */
  points: CurvePoint[]
}

export type Allocation = { id: string; amountIn: bigint }

export type AllocateAcrossCurvesResult = {
  /** Inputs per used source (each > 0), summing to `totalIn`, in the order of `curves`. */
  allocations: Allocation[]
  /** Σ of the used sources' concave-hull values (rounded down): the optimum over the curves. */
  value: bigint
}

type Segment = { source: number; dx: bigint; dy: bigint }

/**
 * The allocation of `totalIn` across sources that maximises the total net output, over each
 * source's sampled curve made concave (its upper hull) and its fixed cost (gas, paid only by a
 * source that is used). For each subset of sources the optimum of concave piecewise-linear curves
 * under one budget is water-filling: take the curves' segments steepest first until the input is
 * spent (exact, bigint slopes); the best subset wins (fewer sources on a tie). Exact on the
 * curves, never below the best single source (each source alone is one of the subsets), and
 * cheap: 2^n subsets of at most n·k segments, n ≤ 7 sources. Undefined when no subset can take
 * all of `totalIn` (every curve stops short of it).
 *
 * @example
 * allocateAcrossCurves({ totalIn: 100n, curves: [
 *   { id: 'a', points: [{ x: 0n, y: -1n }, { x: 50n, y: 60n }, { x: 100n, y: 100n }] },
 *   { id: 'b', points: [{ x: 0n, y: -1n }, { x: 50n, y: 55n }, { x: 100n, y: 90n }] },
 * ] }) // { allocations: [{ id: 'a', amountIn: 50n }, { id: 'b', amountIn: 50n }], value: 115n }
 */
export function allocateAcrossCurves({
  curves,
  totalIn,
}: {
  curves: SourceCurve[]
  totalIn: bigint
}): AllocateAcrossCurvesResult | undefined {
  if (curves.length > 16) throw new RangeError(`allocateAcrossCurves: ${curves.length} sources (at most 16)`)
  const hulls = curves.map((curve) => upperConcaveHull(curve.points))
  const segments: Segment[][] = hulls.map((hull, source) =>
    hull.slice(1).map((p, i) => ({ source, dx: p.x - hull[i].x, dy: p.y - hull[i].y })),
  )
  let best: { value: bigint; amounts: bigint[]; size: number } | undefined
  for (let mask = 1; mask < 1 << curves.length; mask++) {
    const members = curves.map((_, i) => i).filter((i) => mask & (1 << i))
    const result = waterFill(
      members.map((i) => segments[i]),
      members.reduce((sum, i) => sum + (hulls[i][0]?.y ?? 0n), 0n),
      totalIn,
    )
    if (!result) continue
    // A member left at zero input paid its fixed cost for nothing: the subset without it is better.
    if (members.some((i) => result.amounts[i] === undefined || result.amounts[i] === 0n)) continue
    if (!best || result.value > best.value || (result.value === best.value && members.length < best.size)) {
      best = { value: result.value, amounts: curves.map((_, i) => result.amounts[i] ?? 0n), size: members.length }
    }
  }
  if (!best) return undefined
  const amounts = best.amounts
  return { value: best.value, allocations: curves.flatMap((curve, i) => (amounts[i] > 0n ? [{ id: curve.id, amountIn: amounts[i] }] : [])) }
}

/** Spends `totalIn` on the steepest segments first; each source's segments are already in decreasing slope order. */
function waterFill(perSource: Segment[][], start: bigint, totalIn: bigint): { value: bigint; amounts: Record<number, bigint> } | undefined {
  const all = perSource.flat()
  // Stable sort by slope, steepest first: dy1/dx1 > dy2/dx2 ⇔ dy1·dx2 > dy2·dx1 (dx > 0).
  all.sort((a, b) => {
    const l = a.dy * b.dx
    const r = b.dy * a.dx
    return l > r ? -1 : l < r ? 1 : 0
  })
  let remaining = totalIn
  let value = start
  const amounts: Record<number, bigint> = {}
  for (const s of perSource) if (s.length) amounts[s[0].source] = 0n
  for (const seg of all) {
    if (remaining === 0n) break
    const take = seg.dx < remaining ? seg.dx : remaining
    value += take === seg.dx ? seg.dy : floorDiv(seg.dy * take, seg.dx)
    amounts[seg.source] += take
    remaining -= take
  }
  return remaining === 0n ? { value, amounts } : undefined
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}
