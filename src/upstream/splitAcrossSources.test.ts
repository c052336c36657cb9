import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type BruteCurve, bruteForceSplit, curveValue } from '../../test/fixtures/upstreams/bruteForceSplit.ts'
import {
  FEE_RECIPIENT,
  GAS_PRICE_WEI,
  LOCAL_POOL,
  TAIL,
  TAKER,
  USDC,
  WETH,
  gasInUsdc,
  useStandInWorld,
  wethToUsdcRequest,
} from '../../test/fixtures/upstreams/standInWorld.ts'
import type { UpstreamService } from './createUpstreamService.ts'
import { constantProductMarket } from './standIns/constantProductMarket.ts'
import { priceWithFee } from './standIns/priceWithFee.ts'
import type { StandInMarket } from './standIns/StandInApi.ts'
import { upstreamIds, upstreamRegistry } from './registry.ts'
import { transactionL1FeeWei } from './transactionL1FeeWei.ts'

// /quote/split's logic against the six stand-ins and a local source: the allocation is the optimum
// of a brute force over the same sampled curves (rebuilt here from the markets, apart from the
// service), never below the single best source, within each upstream's rate limit.

const world = useStandInWorld()

const AMOUNT = 40n * 10n ** 18n
const request = (extra: Record<string, unknown> = {}) => wethToUsdcRequest(AMOUNT, extra)
const localMarket = constantProductMarket({ pools: [LOCAL_POOL] })
const marketOf = (sourceId: string): StandInMarket =>
  sourceId === 'local' ? localMarket : world.markets[sourceId as keyof typeof world.markets]

/** A source's sampled net curve, as the service should have sampled it (even fractions, `asked` of them), after `feeBps` taken where that source takes it. */
async function sampledCurve(sourceId: string, asked: number, feeBps = 0): Promise<BruteCurve> {
  const points = []
  const takenFrom = sourceId === 'local' ? 'tokenOut' : upstreamRegistry[sourceId as keyof typeof upstreamRegistry].adapter.fee.takenFrom
  for (let j = 1; j <= asked; j++) {
    const x = (AMOUNT * BigInt(j)) / BigInt(asked)
    const priced = (await priceWithFee({
      market: marketOf(sourceId),
      trade: { tokenIn: WETH, tokenOut: USDC, amountIn: x },
      fee: { ppm: BigInt(feeBps) * 100n, takenFrom },
    }))!
    const gas = sourceId === 'odos' ? priced.gasUnits + 1n : priced.gasUnits // Odos' float gas, rounded up
    points.push({ x, y: priced.amountOut - gasInUsdc(gas), gas })
  }
  return { id: sourceId, points: [{ x: 0n, y: -gasInUsdc(points[0].gas) }, ...points.map(({ x, y }) => ({ x, y }))] }
}

/**
 * Asserts the split's allocation is worth the brute-force optimum over the sources' sampled curves
 * (after `feeBps`) within 0.1 bps, and returns those curves.
 */
async function assertBruteForceOptimum(answer: Awaited<ReturnType<UpstreamService['split']>>, feeBps = 0): Promise<BruteCurve[]> {
  const curves = await Promise.all(answer.samples.map((s) => sampledCurve(s.sourceId, s.asked, feeBps)))
  const brute = bruteForceSplit(curves, AMOUNT)!
  const chosen = answer.allocations.reduce(
    (sum, a) => sum + curveValue(curves.find((c) => c.id === a.sourceId)!.points, BigInt(a.amountIn))!,
    0n,
  )
  assert.ok(
    chosen >= brute - brute / 100_000n - 1n && chosen <= brute + 1n,
    `allocation worth ${chosen} on the sampled curves after a ${feeBps} bps fee, brute force ${brute}`,
  )
  return curves
}

test('the allocation is the brute-force optimum over the sampled curves (within 0.1 bps), and beats every single source', async () => {
  const answer = await world.service().split(request(), world.local)
  assert.equal(answer.strategy, 'split-aggregator')
  assert.deepEqual(answer.errors, [])
  // Sample counts follow each tier: the bucket's burst, at most 6; our own solver 8.
  const asked = Object.fromEntries(answer.samples.map((s) => [s.sourceId, s.asked]))
  assert.deepEqual(asked, { local: 8, ...Object.fromEntries(upstreamIds.map((id) => [id, Math.min(6, upstreamRegistry[id].burst)])) })
  for (const s of answer.samples) assert.equal(s.answered, s.asked, s.sourceId)

  const curves = await assertBruteForceOptimum(answer)
  assert.ok(answer.allocations.length >= 2, 'a trade this size is split')

  assert.equal(
    answer.allocations.reduce((s, a) => s + BigInt(a.amountIn), 0n),
    AMOUNT,
  )
  assert.equal(answer.totalOutput, answer.allocations.reduce((s, a) => s + BigInt(a.expectedOutput), 0n).toString())
  const singles = curves.map((c) => ({ id: c.id, net: c.points.at(-1)!.y })).sort((a, b) => (a.net > b.net ? -1 : 1))
  assert.equal(answer.singleBestSource, singles[0].id)
  assert.equal(answer.singleBestOutput, singles[0].net.toString())
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
  assert.equal(answer.improvement.absolute, (BigInt(answer.totalOutput) - BigInt(answer.singleBestOutput)).toString())
  assert.equal(answer.improvement.bps, Number((BigInt(answer.improvement.absolute) * 1_000_000n) / BigInt(answer.singleBestOutput)) / 100)
  for (const a of answer.allocations) {
    // What a source answered (or the chord under its concave curve): never more than it pays.
    const truth = (await marketOf(a.sourceId)({ tokenIn: WETH, tokenOut: USDC, amountIn: BigInt(a.amountIn) }))!
    assert.ok(BigInt(a.outputAmount) <= truth.amountOut, a.sourceId)
    assert.equal(a.hasExecutableQuote, a.sourceId === 'local', 'without a taker only our own quote is executable')
    if (a.sourceId === 'local') assert.match(a.quoteId!, /^q\d+$/)
  }
})

test('with a taker: every upstream piece gets its transaction for exactly its size; samples leave room for it in the rate limit', async () => {
  const answer = await world.service().split(request({ taker: TAKER }), world.local)
  const asked = Object.fromEntries(answer.samples.map((s) => [s.sourceId, s.asked]))
  assert.equal(asked['0x'], 4, '5 tokens, 1 kept for its /quote')
  assert.equal(asked.kyberswap, 1, '3 tokens, 2 kept for routes + build')
  for (const a of answer.allocations) {
    assert.equal(a.hasExecutableQuote, true, `${a.sourceId}: ${answer.errors.join('; ')}`)
    if (a.sourceId === 'local') continue
    assert.ok(a.transaction, a.sourceId)
    // The firm quote (its last one or two calls: quote then build/assemble) is for exactly that size.
    const firm = world.standIns[a.sourceId as keyof typeof world.standIns].requests.slice(
      -upstreamRegistry[a.sourceId as keyof typeof upstreamRegistry].adapter.executableCalls,
    )
    assert.ok(JSON.stringify(firm[0]).includes(a.amountIn), `${a.sourceId}: the firm quote is for exactly ${a.amountIn}`)
  }
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
})

test('one upstream hangs, another rate-limits: the split is made from what answered by the deadline', async () => {
  world.standIns.odos.setBehaviour({ mode: 'hang' })
  world.standIns['0x'].setBehaviour({ mode: 'rate limited' })
  const answer = await world.service().split(request({ timeBudgetMs: 500 }), world.local)
  const errors = answer.errors.join('\n')
  assert.match(errors, /^odos: timeout: .*\(2 of 2 sizes\)/m)
  assert.match(errors, /^0x: rate limited: HTTP 429.*\(5 of 5 sizes\)/m)
  assert.ok(answer.allocations.every((a) => a.sourceId !== 'odos' && a.sourceId !== '0x'))
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
})

test('only our solver answers: all of it goes there; nobody answers: no allocation, and the errors say why', async () => {
  for (const id of upstreamIds) world.standIns[id].setBehaviour({ mode: 'server error' })
  const alone = await world.service().split(request(), world.local)
  assert.deepEqual(
    alone.allocations.map((a) => [a.sourceId, a.amountIn]),
    [['local', AMOUNT.toString()]],
  )
  assert.equal(alone.singleBestSource, 'local')
  assert.equal(alone.improvement.absolute, '0')
  const none = await world.service().split(request({ tokenOut: TAIL }), world.local)
  assert.deepEqual(none.allocations, [])
  assert.equal(none.singleBestSource, '')
  assert.equal(none.totalOutput, '0')
  assert.match(none.errors.join('\n'), /^local: no route/m)
})

test('with feeBps > 0: every curve is after the same fee, the allocation is the brute-force optimum over them, never below the single best', async () => {
  const FEE = 25
  const answer = await world.service().split(request({ feeBps: FEE }), world.local, FEE_RECIPIENT)
  assert.deepEqual(answer.errors, [])
  for (const s of answer.samples) assert.equal(s.answered, s.asked, s.sourceId)
  const curves = await assertBruteForceOptimum(answer, FEE)
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
  const singles = curves.map((c) => ({ id: c.id, net: c.points.at(-1)!.y })).sort((a, b) => (a.net > b.net ? -1 : 1))
  assert.deepEqual([answer.singleBestSource, answer.singleBestOutput], [singles[0].id, singles[0].net.toString()])
  assert.equal(
    answer.allocations.reduce((s, a) => s + BigInt(a.amountIn), 0n),
    AMOUNT,
  )
  for (const a of answer.allocations) {
    // Our own piece is issued after the same fee as the upstreams' pieces.
    if (a.sourceId === 'local') assert.equal(world.local.issued.at(-1)!.feeBps, FEE)
  }
  // Every sample of every upstream carried the fee.
  const feeOnWire: Record<string, (r: { query: Record<string, string>; json: unknown }) => unknown> = {
    '0x': (r) => r.query.swapFeeBps,
    '1inch': (r) => r.query.fee,
    kyberswap: (r) => r.query.feeAmount,
    odos: (r) => (r.json as { partnerFeePercent?: number }).partnerFeePercent,
    velora: (r) => r.query.partnerFeeBps,
    openocean: (r) => r.query.referrerFee,
  }
  const expected: Record<string, unknown> = { '0x': '25', '1inch': '0.25', kyberswap: '25', odos: 0.0025, velora: '25', openocean: '0.25' }
  for (const id of upstreamIds) {
    assert.ok(world.standIns[id].requests.length > 0, id)
    for (const r of world.standIns[id].requests) assert.equal(feeOnWire[id](r), expected[id], id)
  }
})

test("with a fee above one API's cap, that upstream is left out with one line (no call), and the split runs on the others", async () => {
  const answer = await world.service().split(request({ feeBps: 250 }), world.local, FEE_RECIPIENT)
  assert.deepEqual(answer.errors, [
    'velora: unsupported: feeBps 250 is above its maximum integrator fee of 200 bps (partnerFeeBps): not asked',
  ])
  assert.equal(world.standIns.velora.requests.length, 0)
  assert.ok(answer.samples.every((s) => s.sourceId !== 'velora'))
  assert.ok(answer.allocations.every((a) => a.sourceId !== 'velora'))
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
})

test("on an OP-stack chain each source used pays its transaction's L1 data fee: every piece and the single best are netted of it, as /quote nets ours", async () => {
  const L1 = { isFjord: true, l1BaseFee: 30n * 10n ** 9n, blobBaseFee: 10n ** 9n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n }
  const inUsdc = (wei: bigint) => (wei * 3000n * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n
  const priceOnlyL1 = transactionL1FeeWei({ parameters: L1, chainId: 8453, gasPriceWei: GAS_PRICE_WEI })
  const answer = await world.service({ l1Parameters: () => L1 }).split(request(), world.local)
  assert.ok(answer.allocations.length > 0)
  for (const a of answer.allocations) {
    // Our own plan's L1 fee is in its gasCostWei (none in this world's local source); an upstream's price, the assumed size's.
    const l1 = a.sourceId === 'local' ? 0n : priceOnlyL1
    assert.equal(BigInt(a.expectedOutput), BigInt(a.outputAmount!) - inUsdc(BigInt(a.gasEstimate!) * GAS_PRICE_WEI + l1), a.sourceId)
  }
  assert.ok(BigInt(answer.totalOutput) >= BigInt(answer.singleBestOutput))
})
