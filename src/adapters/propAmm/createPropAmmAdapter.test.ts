import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, type Hex, parseAbi, type PublicClient } from 'viem'
import { loadSolver } from '../../../bindings/index.ts'
import type { LunarbaseState, SampledState } from '../../../bindings/types.ts'
import { createPropAmmMarket, type PropAmmMarket } from '../../../test/propAmm/createPropAmmMarket.ts'
import { setVenueInventoryCap } from '../../../test/propAmm/setVenueInventoryCap.ts'
import { startPropAmmKeeper, type PropAmmKeeper } from '../../devnet/propAmm/startPropAmmKeeper.ts'
import type { PropAmmVenue } from '../../devnet/propAmm/PropAmmDescription.ts'
import { useDevnet } from '../../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../devnet/writeContractAndWait.ts'
import { readPoolSnapshots } from '../../market/readPoolSnapshots.ts'
import type { PoolAdapter, PoolRef } from '../PoolAdapter.ts'
import { createPropAmmAdapter } from './createPropAmmAdapter.ts'
import { propAmmMarginBps } from './propAmmMarginBps.ts'
import { decodePropAmmQuote, propAmmQuoteCall } from './propAmmQuoteCall.ts'

// The prop AMM adapters read the devnet's stand-ins (deployPropAmms, re-priced by the keeper)
// through the market's own batched reader: every sample equals the venue's own view asked by the
// executor at that block, all venues' samples go out in one eth_call, the wire state is what the
// solver takes; a stale or paused venue is unusable with its reason, and so is one whose own quote
// view is not monotone (its operator's inventory cap, OperatorPriced.sol); LUNARBASE is read exactly (its
// state at the executor's fee multiplier) and the solver's exact model pays what the venue's own view
// quotes; FELTIR's samples stay within its cumulative limit.

const EXECUTOR: Address = '0x5000000000000000000000000000000000000e0c'
const devnet = useDevnet()
let market: PropAmmMarket
let keeper: PropAmmKeeper
const adapters = new Map<string, PoolAdapter>()
beforeAll(async () => {
  market = await createPropAmmMarket({ devnet, executor: EXECUTOR })
  keeper = await startPropAmmKeeper({ devnet, propAmms: market.propAmms, intervalMs: 0 })
  for (const dex of ['PROPSWAP', 'TESSERA', 'ELFOMOFI', 'LUNARBASE', 'FELTIR'] as const) adapters.set(dex, createPropAmmAdapter({ dex }))
})
afterAll(async () => {
  await keeper?.stop()
})

const refOf = (venue: PropAmmVenue, marginBps?: number): PoolRef =>
  (adapters.get(venue.dex) as PoolAdapter).refOfConfiguredPool({ dex: venue.dex, address: venue.address, marginBps }, undefined)

/** Every venue read at the head through `readPoolSnapshots`, counting the eth_calls that carry the sampling override. */
async function readAll(executor: Address = EXECUTOR, refs = market.propAmms.venues.map((v) => refOf(v))) {
  const client = devnet.publicClient as unknown as PublicClient
  let sampling = 0
  const counting = { ...client, call: (p: Parameters<PublicClient['call']>[0]) => (p.stateOverride && sampling++, client.call(p)) }
  const head = await client.getBlock()
  const read = await readPoolSnapshots({
    client: counting as PublicClient,
    refs,
    adapterOf: (ref) => adapters.get(ref.dex) as PoolAdapter,
    blockNumber: head.number,
    nextBlock: { number: head.number + 1n, timestamp: head.timestamp + 2n },
    concurrency: 4,
    executor,
  })
  return { ...read, blockNumber: head.number, sampling }
}

async function viewQuote(venue: PropAmmVenue, tokenIn: Address, amountIn: bigint, blockNumber: bigint, from: Address) {
  const tokenOut = tokenIn === venue.tokens[0] ? venue.tokens[1] : venue.tokens[0]
  const { target, callData } = propAmmQuoteCall({ dex: venue.dex, entry: venue.entry, tokenIn, tokenOut, amountIn })
  const { data } = await devnet.publicClient.call({ to: target, data: callData, account: from, blockNumber })
  return decodePropAmmQuote(venue.dex, data as Hex)
}

test('every venue sampled both ways in one eth_call; each sample is the venue view asked by the executor; LUNARBASE read exactly; the solver takes them', async () => {
  await keeper.tick()
  const { snapshots, unusable, blockNumber, sampling } = await readAll()
  assert.deepEqual(unusable, [])
  assert.equal(snapshots.length, 10)
  assert.equal(sampling, 1, 'one sampling multicall for all ten venues')
  for (const snapshot of snapshots) {
    const venue = market.propAmms.venues.find((v) => v.address.toLowerCase() === snapshot.ref.id) as PropAmmVenue
    assert.deepEqual(adapters.get(venue.dex)?.encodeLeg(snapshot.ref), {
      kind: 'prop_amm',
      router: venue.entry,
      protocol: venue.dex.toLowerCase(),
    })
    if (venue.dex === 'LUNARBASE') {
      const exact = snapshot.input.state as LunarbaseState
      assert.equal(exact.model, 'lunarbase')
      assert.deepEqual(snapshot.input.tokens, venue.tokens, 'X, then Y')
      assert.deepEqual([exact.feeMultiplier, exact.block, exact.paused], ['1', (blockNumber + 1n).toString(), false])
      continue
    }
    const state = snapshot.input.state as SampledState
    assert.equal(state.model, 'sampled')
    assert.equal(state.marginBps, propAmmMarginBps[venue.dex])
    assert.equal(snapshot.refreshEveryBlock, true)
    assert.equal(snapshot.ref.entry, venue.entry)
    const [token0, token1] = snapshot.input.tokens
    assert.ok(BigInt(token0) < BigInt(token1))
    for (const [tokenIn, samples] of [
      [token0, state.zeroForOne],
      [token1, state.oneForZero],
    ] as const) {
      assert.ok(samples.length >= 10, `${venue.dex} ${venue.symbols[0]}: ${samples.length} samples`)
      for (const [amountIn, amountOut] of samples) {
        assert.equal(
          BigInt(amountOut),
          await viewQuote(venue, tokenIn, BigInt(amountIn), blockNumber, EXECUTOR),
          `${venue.dex} ${amountIn}`,
        )
      }
      // The largest sample is one the venue can still pay: the next size up (or its inventory) it cannot.
      const outs = samples.map(([, o]) => BigInt(o))
      assert.deepEqual(
        [...outs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        outs,
        'monotone',
      )
    }
  }
  const solver = await loadSolver({ nativeToken: market.tokens.WETH.address })
  let exactChecked = 0
  try {
    const { rejected } = await solver.applyBlock({ blockNumber: Number(blockNumber), upserts: snapshots.map((s) => s.input) })
    assert.deepEqual(rejected, [])
    // The exact model: one LUNARBASE leg pays what the venue's own view quotes the executor, both ways, at every size.
    for (const venue of market.propAmms.venues.filter((v) => v.dex === 'LUNARBASE'))
      for (const [tokenIn, tokenOut] of [venue.tokens, [venue.tokens[1], venue.tokens[0]]] as const)
        for (const amountIn of [10n ** 3n, 10n ** 7n, 10n ** 12n, 10n ** 17n, 10n ** 20n]) {
          const viewed = await viewQuote(venue, tokenIn, amountIn, blockNumber, EXECUTOR)
          if (viewed === 0n) continue
          const only = await solver.quote({
            tokenIn,
            tokenOut,
            amountIn: amountIn.toString(),
            slippageBps: 0,
            maxHops: 1,
            splitEnabled: false,
            allowedDexes: ['LUNARBASE'],
          })
          assert.equal(only.expectedAmountOut, viewed.toString(), `LUNARBASE ${venue.symbols.join('/')} ${amountIn} of ${tokenIn}`)
          exactChecked++
        }
    assert.ok(exactChecked >= 8, `${exactChecked} exact LUNARBASE quotes checked`)
    const plan = await solver.quote({
      tokenIn: market.tokens.WETH.address,
      tokenOut: market.tokens.USDC.address,
      amountIn: (10n ** 18n).toString(),
      slippageBps: 50,
    })
    assert.ok(BigInt(plan.expectedAmountOut) > 2_900n * 10n ** 6n, `1 WETH through the venues: ${plan.expectedAmountOut}`)
    const large = await solver.quote({
      tokenIn: market.tokens.WETH.address,
      tokenOut: market.tokens.USDC.address,
      amountIn: (300n * 10n ** 18n).toString(),
      slippageBps: 50,
    })
    const venuesUsed = new Set(large.routes.flatMap((r) => r.legs.map((l) => l.dex)))
    assert.ok(venuesUsed.size > 1, `300 WETH split across venues: ${[...venuesUsed]}`)
  } finally {
    await solver.close()
  }
})

test('a stale venue and a paused one are unusable with their reason; the operator update brings them back', async () => {
  await keeper.tick()
  const elfomo = market.propAmms.venues.filter((v) => v.dex === 'ELFOMOFI')
  const propswap = market.propAmms.venues.find((v) => v.dex === 'PROPSWAP') as PropAmmVenue
  await writeContractAndWait({
    devnet,
    address: propswap.address,
    abi: parseAbi(['function setPaused(bool)']),
    functionName: 'setPaused',
    args: [true],
  })
  // ELFOMOFI is fresh for 5 blocks: after 3 more, the next block is its last fresh one; after 4 it is not.
  await devnet.testClient.mine({ blocks: 2 })
  let { unusable } = await readAll()
  assert.deepEqual(
    unusable.map((u) => [u.ref.id, u.reason]),
    [[propswap.address.toLowerCase(), 'paused']],
  )
  await devnet.testClient.mine({ blocks: 1 })
  ;({ unusable } = await readAll())
  assert.deepEqual(
    unusable.map((u) => u.ref.id).sort(),
    [propswap.address, ...elfomo.map((v) => v.address)].map((a) => a.toLowerCase()).sort(),
  )
  for (const u of unusable.filter((u) => u.ref.dex === 'ELFOMOFI'))
    assert.match(u.reason, /^stale: the operator's last update was at block \d+, fresh for 5 blocks/)
  await writeContractAndWait({
    devnet,
    address: propswap.address,
    abi: parseAbi(['function setPaused(bool)']),
    functionName: 'setPaused',
    args: [false],
  })
  await keeper.tick()
  assert.deepEqual((await readAll()).unusable, [])
})

test('a venue whose own quote view is not monotone is unusable, naming the two samples; its operator clears the cap and it is back that block', async () => {
  await keeper.tick()
  const propswap = market.propAmms.venues.find((v) => v.dex === 'PROPSWAP' && v.symbols[0] === 'WETH') as PropAmmVenue
  const id = propswap.address.toLowerCase()
  assert.deepEqual((await readAll()).unusable, [], 'every venue usable before the cap')
  // Past 10 % of its inventory of the output token, the venue quotes less the more it is sold.
  await setVenueInventoryCap({ devnet, propAmms: market.propAmms, venue: propswap.address, capBps: 1_000 })
  const { unusable, snapshots, blockNumber } = await readAll()
  assert.deepEqual(
    unusable.map((u) => u.ref.id),
    [id],
  )
  assert.equal(snapshots.length, 9, 'the nine other venues are read as before')
  const shown = /^samples not monotone: (\d+) in pays (\d+), less than (\d+) for (\d+)$/.exec(unusable[0].reason)
  assert.ok(shown, unusable[0].reason)
  const [larger, paid, more, smaller] = shown.slice(1).map(BigInt)
  assert.ok(larger > smaller && paid < more, unusable[0].reason)
  // The two samples are the venue's own view (base in: the first direction sampled), asked by the executor at that block.
  assert.equal(await viewQuote(propswap, propswap.tokens[0], larger, blockNumber, EXECUTOR), paid)
  assert.equal(await viewQuote(propswap, propswap.tokens[0], smaller, blockNumber, EXECUTOR), more)
  await setVenueInventoryCap({ devnet, propAmms: market.propAmms, venue: propswap.address, capBps: 0 })
  const back = await readAll()
  assert.deepEqual(back.unusable, [])
  assert.ok(back.snapshots.some((s) => s.ref.id === id))
})

test('LUNARBASE is read at the executor fee multiplier; a configured margin wins; FELTIR samples stay within its limit', async () => {
  await keeper.tick()
  const lunar = market.propAmms.venues.find((v) => v.dex === 'LUNARBASE') as PropAmmVenue
  const feltir = market.propAmms.venues.find((v) => v.dex === 'FELTIR') as PropAmmVenue
  const limit = 3n * 10n ** 18n
  await writeContractAndWait({
    devnet,
    address: feltir.address,
    abi: parseAbi(['function setSwapLimit(address, address, uint256)']),
    functionName: 'setSwapLimit',
    args: [feltir.tokens[0], feltir.tokens[1], limit],
  })
  await keeper.tick()
  const refs = [refOf(lunar, 42), refOf(feltir, 42)]
  const asExecutor = await readAll(EXECUTOR, refs)
  const asOther = await readAll(devnet.account, refs)
  const [lunarMine, lunarOther] = [asExecutor, asOther].map((r) => r.snapshots[0].input.state as LunarbaseState)
  // The margin of an exact venue is what its leg minimums leave for a re-pricing (docs/prop-amms.md).
  assert.equal(asExecutor.snapshots[0].ref.marginBps, 42)
  assert.deepEqual([lunarMine.feeMultiplier, lunarOther.feeMultiplier], ['1', '3'], 'another caller pays 3× the fee')
  const feltirState = asExecutor.snapshots[1].input.state as SampledState
  assert.equal(feltirState.marginBps, 42)
  const feltirWeth = BigInt(feltir.tokens[0]) < BigInt(feltir.tokens[1]) ? feltirState.zeroForOne : feltirState.oneForZero
  assert.ok(feltirWeth.length > 3 && feltirWeth.every(([i]) => BigInt(i) <= limit), 'WETH in: no sample above the limit')
})
