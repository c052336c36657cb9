import assert from 'node:assert/strict'
import { test } from 'vitest'
import { upperConcaveHull } from './upperConcaveHull.ts'

const p = (x: number, y: number) => ({ x: BigInt(x), y: BigInt(y) })

test('concave points come back unchanged; a point under a chord (or on it) is dropped', () => {
  const concave = [p(0, -5), p(10, 50), p(20, 90), p(30, 120)]
  assert.deepEqual(upperConcaveHull(concave), concave)
  assert.deepEqual(upperConcaveHull([p(0, 0), p(1, 1), p(2, 3)]), [p(0, 0), p(2, 3)])
  assert.deepEqual(upperConcaveHull([p(0, 0), p(1, 1), p(2, 2)]), [p(0, 0), p(2, 2)], 'collinear middle point')
  assert.deepEqual(upperConcaveHull([p(0, 0)]), [p(0, 0)])
})

test('random point sets: the hull is concave, keeps both ends, and is at or above every point', () => {
  let seed = 7
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % n
  }
  for (let run = 0; run < 300; run++) {
    const points = []
    let x = 0
    for (let i = 0; i < 2 + rand(9); i++) {
      points.push(p(x, rand(1000) - 300))
      x += 1 + rand(50)
    }
    const hull = upperConcaveHull(points)
    assert.deepEqual(hull[0], points[0])
    assert.deepEqual(hull[hull.length - 1], points[points.length - 1])
    for (let i = 2; i < hull.length; i++) {
      const [a, b, c] = [hull[i - 2], hull[i - 1], hull[i]]
      assert.ok((b.y - a.y) * (c.x - b.x) > (c.y - b.y) * (b.x - a.x), 'slopes strictly decrease')
    }
    for (const q of points) {
      const i = hull.findIndex((h) => h.x >= q.x)
      const [a, b] = [hull[Math.max(0, i - 1)], hull[i]]
      // q.y ≤ chord(a, b) at q.x  ⇔  (q.y - a.y)·(b.x - a.x) ≤ (b.y - a.y)·(q.x - a.x)
      if (b.x !== a.x) assert.ok((q.y - a.y) * (b.x - a.x) <= (b.y - a.y) * (q.x - a.x))
      else assert.ok(q.y <= b.y)
    }
  }
})
