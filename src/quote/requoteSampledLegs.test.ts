import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, getAddress } from 'viem'
import type { DexId, SolverLeg, SolverPlan } from '../../bindings/types.ts'
import { createSeedPrng } from '../devnet/seed/createSeedPrng.ts'
import {
  type ExactLegOut,
  legsToResimulate,
  priorSwapsKey,
  requoteSampledLegs,
  sampledLegAsks,
  type SampledVenue,
} from './requoteSampledLegs.ts'

// The re-quote's arithmetic on hand-made plans (no chain, no solver): the plan takes the venues'
// quoted amounts, and each leg's minOut holds for any re-pricing within the venue's margin.

const [A, B, C] = [
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000b2',
  '0x00000000000000000000000000000000000000c3',
] as Address[]
const ENTRY = '0x00000000000000000000000000000000000000e0' as Address
const venue: SampledVenue = { dex: 'FELTIR', entry: ENTRY, marginBps: 10, sampled: true }
const venueOf = (poolId: string) => (poolId.startsWith('prop') ? venue : undefined)

const leg = (poolId: string, tokenIn: Address, tokenOut: Address, amountIn: bigint, amountOut: bigint): SolverLeg => ({
  dex: (poolId.startsWith('prop') ? 'FELTIR' : 'UNIV2') as DexId,
  poolId,
  tokenIn,
  tokenOut,
  amountIn: amountIn.toString(),
  amountOut: amountOut.toString(),
  minOut: ((amountOut * 9_950n) / 10_000n).toString(),
})
const planOf = (routes: SolverLeg[][]): SolverPlan => {
  const out = routes.reduce((s, legs) => s + BigInt(legs.at(-1)!.amountOut), 0n)
  return {
    blockNumber: 100,
    l1GasPerLeg: 0,
    amountIn: routes.reduce((s, legs) => s + BigInt(legs[0].amountIn), 0n).toString(),
    expectedAmountOut: out.toString(),
    minAmountOut: ((out * 9_950n) / 10_000n).toString(),
    gasUnits: 0,
    gasCostInTokenOut: '0',
    routes: routes.map((legs) => ({ amountIn: legs[0].amountIn, amountOut: legs.at(-1)!.amountOut, legs })),
    metadata: { connectorsConsidered: [], candidatePaths: 0, selectedPaths: 0, candidates: [], stoppedBy: 'converged' },
  }
}

test('a sampled leg takes its quote; its minOut leaves the margin, then the slippage; other routes keep theirs', () => {
  const solved = planOf([[leg('prop1', A, B, 1_000n, 2_000_000n)], [leg('pool1', A, B, 500n, 990_000n)]])
  assert.deepEqual(
    sampledLegAsks(solved, venueOf).map((a) => a.amountIn),
    [1_000n],
  )
  const q = 2_003_000n
  const { plan, sampledLegs, refused, short } = requoteSampledLegs({
    solved,
    venueOf,
    quotes: { blockNumber: 101n, amounts: [q] },
    slippageBps: 50,
  })
  assert.equal(plan.routes[0].amountOut, q.toString())
  assert.equal(plan.routes[0].legs[0].minOut, ((((q * 9_990n) / 10_000n) * 9_950n) / 10_000n).toString())
  assert.deepEqual(plan.routes[1], solved.routes[1])
  assert.equal(plan.expectedAmountOut, (q + 990_000n).toString())
  assert.equal(plan.minAmountOut, (((q + 990_000n) * 9_950n) / 10_000n).toString())
  assert.deepEqual(sampledLegs, [
    { route: 0, leg: 0, poolId: 'prop1', dex: 'FELTIR', marginBps: 10, sampledOut: '2000000', quotedOut: q.toString(), quotedAtBlock: 101 },
  ])
  assert.deepEqual([refused, short], [[], []])
})

test('a leg after a sampled one: scaled down with less input, kept with more; before it: untouched', () => {
  const solved = planOf([
    [leg('pool0', C, A, 10n, 1_000n), leg('prop1', A, B, 1_000n, 2_000_000n), leg('pool1', B, C, 2_000_000n, 50_000n)],
  ])
  const less = requoteSampledLegs({ solved, venueOf, quotes: { blockNumber: 101n, amounts: [1_500_000n] }, slippageBps: 0 })
  const [before, sampled, after] = less.plan.routes[0].legs
  assert.deepEqual(before, solved.routes[0].legs[0])
  assert.equal(sampled.amountOut, '1500000')
  assert.deepEqual([after.amountIn, after.amountOut], ['1500000', '37500'])
  assert.equal(after.minOut, ((50_000n * ((1_500_000n * 9_990n) / 10_000n)) / 2_000_000n).toString())
  assert.deepEqual(less.short, [{ poolId: 'prop1', dex: 'FELTIR', sampledOut: '2000000', quotedOut: '1500000' }])
  const more = requoteSampledLegs({ solved, venueOf, quotes: { blockNumber: 101n, amounts: [2_100_000n] }, slippageBps: 0 })
  assert.equal(more.plan.routes[0].legs[2].amountOut, '50000')
  assert.equal(more.plan.expectedAmountOut, '50000')
  assert.deepEqual(more.short, [])
})

test('an exact LUNARBASE leg is re-quoted and takes its quote, but is not listed as sampled; short only beyond its margin', () => {
  const exact: SampledVenue = { dex: 'LUNARBASE', entry: ENTRY, marginBps: 15, sampled: false }
  const solved = planOf([[leg('prop1', A, B, 1_000n, 2_000_000n)]])
  const within = (2_000_000n * 9_985n) / 10_000n
  const moved = requoteSampledLegs({ solved, venueOf: () => exact, quotes: { blockNumber: 101n, amounts: [within] }, slippageBps: 50 })
  assert.deepEqual([moved.sampledLegs, moved.short, moved.refused], [[], [], []])
  assert.equal(moved.plan.expectedAmountOut, within.toString())
  assert.equal(moved.plan.routes[0].legs[0].minOut, ((((within * 9_985n) / 10_000n) * 9_950n) / 10_000n).toString())
  const beyond = requoteSampledLegs({
    solved,
    venueOf: () => exact,
    quotes: { blockNumber: 101n, amounts: [within - 1n] },
    slippageBps: 50,
  })
  assert.deepEqual(
    beyond.short.map((s) => s.quotedOut),
    [(within - 1n).toString()],
  )
})

test('a venue that refuses its leg (its view reverted or pays 0) is listed as refused', () => {
  const solved = planOf([[leg('prop1', A, B, 1_000n, 2_000_000n)], [leg('prop2', A, B, 1_000n, 2_000_000n)]])
  const { refused } = requoteSampledLegs({ solved, venueOf, quotes: { blockNumber: 101n, amounts: [undefined, 0n] }, slippageBps: 50 })
  assert.deepEqual(
    refused.map((r) => r.poolId),
    ['prop1', 'prop2'],
  )
})

test('every leg pays its minOut whenever the venue re-prices within its margin (a constant-product pool after it)', () => {
  // The prop leg then a 0.3 % constant-product pool: the venue pays anything from q·(1 − m) to q,
  // the pool's exact integer output on what it gets must reach its minOut, at every slippage.
  const next = createSeedPrng({ seed: 24 })
  const r0 = 3_000_000n * 10n ** 6n
  const r1 = 1_000n * 10n ** 18n
  const cpmm = (x: bigint) => (x * 997n * r1) / (r0 * 1_000n + x * 997n)
  for (let trial = 0; trial < 500; trial++) {
    const sampledOut = BigInt(Math.floor(next() * 1e6) + 1) * 10n ** 6n
    const q = (sampledOut * BigInt(9_950 + Math.floor(next() * 100))) / 10_000n
    const marginBps = 1 + Math.floor(next() * 100)
    const slippageBps = Math.floor(next() * 60)
    const solved = planOf([[leg('prop1', A, B, 10n ** 18n, sampledOut), leg('pool1', B, C, sampledOut, cpmm(sampledOut))]])
    const { plan } = requoteSampledLegs({
      solved,
      venueOf: () => ({ ...venue, marginBps }),
      quotes: { blockNumber: 1n, amounts: [q] },
      slippageBps,
    })
    const [prop, pool] = plan.routes[0].legs
    const paid = q - (q * BigInt(Math.floor(next() * (marginBps + 1)))) / 10_000n // re-priced within the margin
    assert.ok(paid >= BigInt(prop.minOut), `trial ${trial}: the venue's ${paid} is under its minOut ${prop.minOut}`)
    assert.ok(cpmm(paid) >= BigInt(pool.minOut), `trial ${trial}: the pool's ${cpmm(paid)} is under its minOut ${pool.minOut}`)
    if (paid === q) assert.equal(cpmm(paid) >= BigInt(plan.expectedAmountOut), true)
  }
})

test('pool legs after a sampled leg: simulated at their new input they make the route exact; a pool another leg trades is simulated after its earlier legs', () => {
  // prop1 then pool1 then pool2; pool2 also on the second route, its input unchanged but its pool
  // moved by the first route's pool2 leg (the e2e DEGEN→cbBTC plan: its last PANCAKE_V3 pool on two
  // routes after a re-quoted CURVE CryptoSwap leg, which had paid more than the plan said).
  const solved = planOf([
    [leg('prop1', A, B, 1_000n, 2_000n), leg('pool1', B, C, 2_000n, 4_000n), leg('pool2', C, A, 4_000n, 900n)],
    [leg('pool2', C, A, 100n, 20n)],
  ])
  const quotes = { blockNumber: 101n, amounts: [2_100n] }
  const first = requoteSampledLegs({ solved, venueOf, quotes, slippageBps: 50 })
  const exactOuts = new Map<string, ExactLegOut>()
  const pending = (plan: SolverPlan) =>
    legsToResimulate({ solved, requoted: plan, venueOf, exactOuts }).map((p) => [p.key, p.poolId, p.amountIn, p.priorSwaps])
  assert.deepEqual(pending(first.plan), [['0:1', 'pool1', 2_100n, []]])
  exactOuts.set('0:1', { amountIn: 2_100n, amountOut: 4_190n, priorSwaps: '' })
  const second = requoteSampledLegs({ solved, venueOf, quotes, slippageBps: 50, exactOuts })
  assert.equal(second.plan.routes[0].legs[1].amountOut, '4190', 'the simulated output, not the planned 4,000')
  assert.equal(second.plan.routes[0].legs[2].amountOut, '900', 'not simulated yet: its planned output, a lower bound')
  const prior = [{ tokenIn: getAddress(C), tokenOut: getAddress(A), amountIn: '4190' }]
  assert.deepEqual(pending(second.plan), [
    ['0:2', 'pool2', 4_190n, []],
    ['1:0', 'pool2', 100n, prior],
  ])
  exactOuts.set('0:2', { amountIn: 4_190n, amountOut: 940n, priorSwaps: '' })
  exactOuts.set('1:0', { amountIn: 100n, amountOut: 19n, priorSwaps: priorSwapsKey(prior) })
  const third = requoteSampledLegs({ solved, venueOf, quotes, slippageBps: 50, exactOuts })
  assert.deepEqual(
    third.plan.routes.map((r) => r.amountOut),
    ['940', '19'],
    'each pool2 leg at what the pool pays after the legs before it',
  )
  assert.equal(third.plan.expectedAmountOut, '959')
  assert.equal(third.plan.routes[1].legs[0].minOut, ((19n * 9_950n) / 10_000n).toString())
  assert.deepEqual(pending(third.plan), [], 'every moved leg known exactly')
  // An output priced after other prior swaps than the plan's now is not used: the lower bound (its
  // planned 20 less the most the earlier leg took extra, ⌈900·190/4,000⌉ = 43: 0), asked again.
  exactOuts.set('1:0', { amountIn: 100n, amountOut: 19n, priorSwaps: priorSwapsKey([{ ...prior[0], amountIn: '4000' }]) })
  assert.equal(requoteSampledLegs({ solved, venueOf, quotes, slippageBps: 50, exactOuts }).plan.routes[1].amountOut, '0')
  assert.deepEqual(pending(third.plan), [['1:0', 'pool2', 100n, prior]])
  // A refused simulation keeps the lower bound and is not asked again.
  const refused = new Map([['0:1', { amountIn: 2_100n, amountOut: undefined, priorSwaps: '' }]])
  const fourth = requoteSampledLegs({ solved, venueOf, quotes, slippageBps: 50, exactOuts: refused })
  assert.equal(fourth.plan.routes[0].legs[1].amountOut, '4000')
  assert.deepEqual(legsToResimulate({ solved, requoted: fourth.plan, venueOf, exactOuts: refused }), [])
})

test('a venue traded twice in one direction is asked at its running input: the second leg pays the difference', () => {
  const solved = planOf([
    [leg('prop1', A, B, 1_000n, 2_000n)],
    [leg('pool1', A, C, 500n, 900n), leg('prop1', C, B, 900n, 1_700n)],
    [leg('prop1', A, B, 600n, 1_150n)],
  ])
  // prop1 A→B twice (1,000 then 600: asked at 1,000 and 1,600); C→B is another run.
  assert.deepEqual(
    sampledLegAsks(solved, venueOf).map((a) => a.amountIn),
    [1_000n, 900n, 1_600n],
  )
  const { plan, refused } = requoteSampledLegs({
    solved,
    venueOf,
    quotes: { blockNumber: 101n, amounts: [2_004n, 1_702n, 3_160n] },
    slippageBps: 50,
  })
  assert.deepEqual(
    plan.routes.map((r) => r.amountOut),
    ['2004', '1702', '1156'],
  )
  assert.deepEqual(refused, [])
  // The first leg of the run refused: the second is refused too.
  const again = requoteSampledLegs({
    solved,
    venueOf,
    quotes: { blockNumber: 101n, amounts: [undefined, 1_702n, 3_160n] },
    slippageBps: 50,
  })
  assert.deepEqual(
    again.refused.map((r) => r.amountIn),
    ['1000', '600'],
  )
  // The run's total pays less than its first leg alone (past the venue's inventory): the second leg
  // is refused, and no leg's minOut goes below 0.
  const less = requoteSampledLegs({
    solved,
    venueOf,
    quotes: { blockNumber: 101n, amounts: [2_004n, 1_702n, 1_990n] },
    slippageBps: 50,
  })
  assert.deepEqual(
    less.refused.map((r) => r.amountIn),
    ['600'],
  )
  for (const route of less.plan.routes) for (const l of route.legs) assert.ok(BigInt(l.minOut) >= 0n, `minOut ${l.minOut}`)
})

test('more input than planned into a pool another route trades later: the later leg is lowered by the most the earlier one took extra', () => {
  const solved = planOf([[leg('prop1', A, B, 1_000n, 2_000n), leg('pool1', B, C, 2_000n, 4_000n)], [leg('pool1', B, C, 1_000n, 1_900n)]])
  const { plan } = requoteSampledLegs({ solved, venueOf, quotes: { blockNumber: 101n, amounts: [2_100n] }, slippageBps: 50 })
  // 100 more B into pool1 took at most 4,000 · 100 / 2,000 = 200 more C: the second route's leg pays at least 1,900 − 200.
  assert.deepEqual(
    plan.routes.map((r) => r.amountOut),
    ['4000', '1700'],
  )
  assert.equal(plan.routes[1].legs[0].minOut, ((1_700n * 9_950n) / 10_000n).toString())
  assert.equal(plan.expectedAmountOut, '5700')
})
