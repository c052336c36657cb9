import { describe, expect, it } from 'vitest'
import { plotGapSvg } from './plotGapSvg.ts'

describe('plotGapSvg', () => {
  it('draws one line per series, with its label, higher gaps higher up', () => {
    const svg = plotGapSvg({
      title: 't',
      xLabel: 'size',
      series: [
        {
          label: 'a',
          points: [
            { x: 0.1, y: 0.5 },
            { x: 10, y: 50 },
          ],
        },
        {
          label: 'b',
          points: [
            { x: 0.1, y: 0 },
            { x: 10, y: 0.002 },
          ],
        },
      ],
    })
    expect(svg.match(/<polyline/g)).toHaveLength(2)
    expect(svg).toContain('>a</text>')
    expect(svg).toContain('>b</text>')
    const line =
      svg
        .match(/points="([^"]+)"/)?.[1]
        ?.split(' ')
        .map((p) => p.split(',').map(Number)) ?? []
    // SVG y grows downwards: 50 bps is drawn above 0.5 bps.
    expect(line[1]?.[1]).toBeLessThan(line[0]?.[1] ?? 0)
  })
})
