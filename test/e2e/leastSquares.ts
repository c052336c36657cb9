/**
 * Ordinary least squares by the normal equations (Gauss-Jordan with partial pivoting). Columns that
 * never vary (all zero) get a coefficient of 0 instead of making the system singular.
 *
 * @example
 * leastSquares({ rows: [[1, 0], [1, 1], [1, 2]], y: [1, 3, 5] }) // [1, 2]
 */
export function leastSquares({ rows, y }: { rows: number[][]; y: number[] }): number[] {
  const n = rows[0]?.length ?? 0
  const a = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0))
  rows.forEach((row, r) => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i][j] += row[i] * row[j]
      a[i][n] += row[i] * y[r]
    }
  })
  const used = a.map((row, i) => row[i] !== 0)
  for (let i = 0; i < n; i++) if (!used[i]) a[i][i] = 1
  for (let c = 0; c < n; c++) {
    let p = c
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r
    ;[a[c], a[p]] = [a[p], a[c]]
    const pivot = a[c][c]
    if (Math.abs(pivot) < 1e-12) continue
    for (let j = c; j <= n; j++) a[c][j] /= pivot
    for (let r = 0; r < n; r++) {
      if (r === c || a[r][c] === 0) continue
      const f = a[r][c]
      for (let j = c; j <= n; j++) a[r][j] -= f * a[c][j]
    }
  }
  return a.map((row, i) => (used[i] ? row[n] : 0))
}
