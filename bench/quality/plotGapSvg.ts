/** One line of a gap plot: its label and its points (x > 0; y the gap in bps, ≥ 0). */
export type GapSeries = { label: string; points: { x: number; y: number }[] }

export type PlotGapSvgParameters = {
  title: string
  xLabel: string
  series: GapSeries[]
}

/** Gaps below this (bps) are drawn on the floor of the log axis. */
const FLOOR_BPS = 1e-3
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22']

/**
 * An SVG line plot of gaps (bps, log scale, floored at 0.001) against x (log scale), one line per
 * series, with the 1 bps and 5 bps goals drawn across. Written by the quality benchmark, so the
 * plot in bench/README.md is the measurement's, not drawn by hand.
 *
 * @example
 * const svg = plotGapSvg({ title: 'gap', xLabel: 'size', series: [{ label: '1,000 pools 2-hop', points: [{ x: 1, y: 0.2 }] }] })
 * svg.startsWith('<svg') // true
 */
export function plotGapSvg({ title, xLabel, series }: PlotGapSvgParameters): string {
  const [width, height, left, right, top, bottom] = [720, 420, 60, 200, 30, 50]
  const xs = series.flatMap((s) => s.points.map((p) => p.x))
  const ys = series.flatMap((s) => s.points.map((p) => Math.max(p.y, FLOOR_BPS)))
  const [x0, x1] = [Math.log10(Math.min(...xs)), Math.log10(Math.max(...xs))]
  const [y0, y1] = [Math.log10(FLOOR_BPS), Math.max(1, Math.ceil(Math.log10(Math.max(...ys, 10))))]
  const px = (x: number) => left + ((Math.log10(x) - x0) / Math.max(x1 - x0, 1e-9)) * (width - left - right)
  const py = (y: number) => top + (1 - (Math.log10(Math.max(y, FLOOR_BPS)) - y0) / (y1 - y0)) * (height - top - bottom)
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="18" font-size="13">${title}</text>`,
  ]
  for (let e = Math.round(y0); e <= y1; e++) {
    const y = py(10 ** e)
    parts.push(`<line x1="${left}" x2="${width - right}" y1="${y}" y2="${y}" stroke="#ddd"/>`)
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">${e === Math.round(y0) ? `≤${10 ** e}` : 10 ** e}</text>`)
  }
  for (const goal of [1, 5]) {
    const y = py(goal)
    parts.push(`<line x1="${left}" x2="${width - right}" y1="${y}" y2="${y}" stroke="#888" stroke-dasharray="4 3"/>`)
  }
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    parts.push(`<text x="${px(x)}" y="${height - bottom + 16}" text-anchor="middle">${x}</text>`)
  }
  parts.push(`<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle">${xLabel}</text>`)
  parts.push(
    `<text transform="translate(14 ${(top + height - bottom) / 2}) rotate(-90)" text-anchor="middle">gap to the bound, bps (log)</text>`,
  )
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length]
    const points = [...s.points].sort((a, b) => a.x - b.x)
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`,
    )
    for (const p of points) parts.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="2.5" fill="${colour}"/>`)
    parts.push(`<text x="${width - right + 10}" y="${top + 14 * k + 10}" fill="${colour}">${s.label}</text>`)
  })
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}
