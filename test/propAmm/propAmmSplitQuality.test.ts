import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, getAddress } from 'viem'
import { loadSolver, type Solver } from '../../bindings/index.ts'
import type { PoolInput } from '../../bindings/types.ts'

// Split quality with a prop AMM (issue 24), on the native solver alone: no chain, no server. A
// sampled venue quoting tighter than a constant-product pool on the same pair (the OperatorCurve
// the devnet's stand-ins price with: g·D/(D + g) less a 2 bps fee, against a 30 bps pool) must get
// the share where the two marginal prices meet: the solver's split is compared with the best split
// found by a ternary search over the venue's share, both evaluated by the solver's own pool models
// (`simulate`: the venue's sampled curve with its margin, the pool's exact math). The fitted curve
// is piecewise linear, so the best share sits on one of its samples (10, 20 and 200 A here), where
// the venue's marginal price steps past the pool's.

const token = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const [A, B] = [token(0xa1), token(0xb2)] // A: 18 decimals, priced 3,000 B (6 decimals)
const WETH = A
const ONE_A = 10n ** 18n
const VENUE = token(0x9001).toLowerCase()
const POOL = token(0x9002).toLowerCase()

/** The venue's curve, exact input A → B: the input's value at 3,000 B, through depth D, less 2 bps. */
const venueOut = (amountIn: bigint, depth: bigint) => {
  const g = (amountIn * 3_000n * 10n ** 6n) / ONE_A
  return (((g * depth) / (depth + g)) * 9_998n) / 10_000n
}

let solver: Solver
beforeAll(async () => {
  solver = await loadSolver({ nativeToken: WETH }, { backend: 'native' })
})
afterAll(async () => {
  await solver?.close()
})

/** The venue sampled as the adapter samples it: log-spaced sizes from 10⁻⁴ to 10⁴ A. */
const venueInput = (depth: bigint): PoolInput => {
  const sizes = Array.from({ length: 33 }, (_, i) => ((ONE_A * 10n ** BigInt(Math.floor(i / 4))) / 10_000n) * [1n, 2n, 5n, 8n][i % 4])
  const samples = [...new Set(sizes)]
    .sort((x, y) => (x < y ? -1 : 1))
    .map((x) => [x.toString(), venueOut(x, depth).toString()] as [string, string])
  return { id: VENUE, dex: 'PROPSWAP', tokens: [A, B], state: { model: 'sampled', marginBps: 10, zeroForOne: samples, oneForZero: [] } }
}
const poolInput: PoolInput = {
  id: POOL,
  dex: 'UNIV2',
  tokens: [A, B],
  state: { model: 'constant_product', reserves: [(2_000n * ONE_A).toString(), (6_000_000n * 10n ** 6n).toString()] },
}

const simulated = async (poolId: string, amountIn: bigint) =>
  amountIn === 0n ? 0n : BigInt((await solver.simulate({ poolId, tokenIn: A, amountIn: amountIn.toString() })).amountOut)

test('the venue gets the share where the marginal prices meet: the split pays what the best split does', async () => {
  for (const [depthB, amount] of [
    [2_000_000n, 50n],
    [1_000_000n, 200n],
    [5_000_000n, 400n],
  ] as const) {
    await solver.applyBlock({ blockNumber: Number(amount), upserts: [venueInput(depthB * 10n ** 6n), poolInput] })
    const amountIn = amount * ONE_A
    const plan = await solver.quote({ tokenIn: A, tokenOut: B, amountIn: amountIn.toString(), slippageBps: 50, gasPriceWei: '0' })
    const toVenue = plan.routes.filter((r) => r.legs[0].poolId === VENUE).reduce((s, r) => s + BigInt(r.amountIn), 0n)
    // The best split: the total is concave in the venue's share, so a ternary search finds its top.
    const total = async (x: bigint) => (await simulated(VENUE, x)) + (await simulated(POOL, amountIn - x))
    let [lo, hi] = [0n, amountIn]
    while (hi - lo > amountIn / 100_000n) {
      const m1 = lo + (hi - lo) / 3n
      const m2 = hi - (hi - lo) / 3n
      if ((await total(m1)) < (await total(m2))) lo = m1
      else hi = m2
    }
    const best = await total(lo)
    const what = `${amount} A, venue depth ${depthB} B: the venue got ${toVenue} (best ${lo}), paid ${plan.expectedAmountOut} (best ${best})`
    assert.ok(toVenue > 0n && toVenue < amountIn, `${what}: a split`)
    // Within 0.1 bp of the best total, and the venue's share within 1 % of the input of the best share.
    assert.ok(BigInt(plan.expectedAmountOut) * 100_000n >= best * 99_999n, what)
    const off = toVenue > lo ? toVenue - lo : lo - toVenue
    assert.ok(off * 100n <= amountIn, what)
  }
})
