import assert from 'node:assert/strict'
import { test } from 'vitest'
import { bruteForceSplit as bruteForce, curveValue as valueAt } from '../../../test/fixtures/upstreams/bruteForceSplit.ts'
import { allocateAcrossCurves, type SourceCurve } from './allocateAcrossCurves.ts'

// The allocator against a brute force written apart from it (test/fixtures/upstreams/bruteForceSplit.ts).

type Point = { x: bigint; y: bigint }

function rng(seed: number) {
  let s = seed
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s % n
  }
}

/** A source's sampled net curve from a constant-product pool: concave, with a fixed gas cost. */
function poolCurve(rand: (n: number) => number, id: string, totalIn: bigint, samples: number): SourceCurve {
  const reserveIn = BigInt(1 + rand(50)) * 10n ** 18n
  const reserveOut = (reserveIn * BigInt(2500 + rand(1000))) / 10n ** 12n
  const fee = BigInt(rand(100))
  const gas = BigInt(rand(2_000_000))
  const out = (a: bigint) => (reserveOut * a * (10_000n - fee)) / (reserveIn * 10_000n + a * (10_000n - fee))
  const points: Point[] = [{ x: 0n, y: -gas }]
  for (let j = 1; j <= samples; j++) {
    const x = (totalIn * BigInt(j)) / BigInt(samples)
    points.push({ x, y: out(x) - gas })
  }
  return { id, points }
}

test('random concave curves: the allocation equals the brute force within 0.1 bps and is never below the single best', () => {
  const rand = rng(42)
  let splits = 0
  for (let run = 0; run < 150; run++) {
    const totalIn = BigInt(1 + rand(40)) * 10n ** 18n
    const curves = Array.from({ length: 2 + rand(3) }, (_, i) => poolCurve(rand, `s${i}`, totalIn, 1 + rand(5)))
    const result = allocateAcrossCurves({ curves, totalIn })
    assert.ok(result)
    const brute = bruteForce(curves, totalIn)!
    const tolerance = (brute < 0n ? -brute : brute) / 100_000n + 1n // 0.1 bps
    assert.ok(result.value >= brute - tolerance && result.value <= brute + tolerance, `run ${run}: ${result.value} vs brute force ${brute}`)
    assert.equal(
      result.allocations.reduce((s, a) => s + a.amountIn, 0n),
      totalIn,
    )
    assert.ok(result.allocations.every((a) => a.amountIn > 0n))
    for (const c of curves) assert.ok(result.value >= c.points.at(-1)!.y, 'never below any single source')
    // The answer's own value is what its allocations are worth on the curves.
    const worth = result.allocations.reduce((s, a) => s + valueAt(curves.find((c) => c.id === a.id)!.points, a.amountIn)!, 0n)
    assert.ok(worth >= result.value - 1n && worth <= result.value + 1n)
    if (result.allocations.length > 1) splits++
  }
  assert.ok(splits >= 30, `the runs exercise splits, not only single sources (${splits} of 150)`)
})

test('gas decides: a source whose extra output does not pay for its transaction is left out', () => {
  const line = (id: string, gas: bigint, slope: bigint): SourceCurve => ({
    id,
    points: [
      { x: 0n, y: -gas },
      { x: 100n, y: slope * 100n - gas },
    ],
  })
  // Two identical linear sources: splitting gains nothing and pays a second transaction.
  const two = allocateAcrossCurves({ totalIn: 100n, curves: [line('a', 5n, 2n), line('b', 5n, 2n)] })!
  assert.deepEqual(two.allocations, [{ id: 'a', amountIn: 100n }])
  assert.equal(two.value, 195n)
  // A concave source and a cheap linear one: worth splitting.
  const curved: SourceCurve = {
    id: 'c',
    points: [
      { x: 0n, y: -1n },
      { x: 50n, y: 149n },
      { x: 100n, y: 199n },
    ],
  }
  const split = allocateAcrossCurves({ totalIn: 100n, curves: [curved, line('d', 1n, 2n)] })!
  assert.deepEqual(split.allocations, [
    { id: 'c', amountIn: 50n },
    { id: 'd', amountIn: 50n },
  ])
  assert.equal(split.value, 149n + 99n)
})

test('non-concave samples: the hull is used, the answer still covers the amount and beats every single source', () => {
  const rand = rng(9)
  for (let run = 0; run < 200; run++) {
    const totalIn = 1000n
    const curves: SourceCurve[] = Array.from({ length: 1 + rand(4) }, (_, i) => {
      const points: Point[] = [{ x: 0n, y: -BigInt(rand(20)) }]
      const k = 1 + rand(5)
      for (let j = 1; j <= k; j++) points.push({ x: (totalIn * BigInt(j)) / BigInt(k), y: BigInt(rand(3000)) })
      return { id: `s${i}`, points }
    })
    const result = allocateAcrossCurves({ curves, totalIn })!
    assert.equal(
      result.allocations.reduce((s, a) => s + a.amountIn, 0n),
      totalIn,
    )
    for (const c of curves) assert.ok(result.value >= c.points.at(-1)!.y)
  }
})

test('no subset can take the whole amount: undefined', () => {
  const short: SourceCurve = {
    id: 'a',
    points: [
      { x: 0n, y: 0n },
      { x: 10n, y: 10n },
    ],
  }
  assert.equal(allocateAcrossCurves({ totalIn: 100n, curves: [short] }), undefined)
  assert.deepEqual(allocateAcrossCurves({ totalIn: 20n, curves: [short, { ...short, id: 'b' }] })?.allocations, [
    { id: 'a', amountIn: 10n },
    { id: 'b', amountIn: 10n },
  ])
})
