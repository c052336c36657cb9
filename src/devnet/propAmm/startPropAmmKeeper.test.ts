import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, type Hex, parseAbi } from 'viem'
import { decodePropAmmQuote, propAmmQuoteCall } from '../../adapters/propAmm/propAmmQuoteCall.ts'
import { createPropAmmMarket, type PropAmmMarket } from '../../../test/propAmm/createPropAmmMarket.ts'
import { useDevnet } from '../../../test/fixtures/useDevnet.ts'
import { LUNARBASE_OTHER_CALLER_FEE_MULTIPLIER } from './deployPropAmms.ts'
import type { PropAmmVenue } from './PropAmmDescription.ts'
import { type PropAmmKeeper, startPropAmmKeeper } from './startPropAmmKeeper.ts'

// The seeded market's prop AMMs (deployPropAmms, on a bare devnet) and their keeper: every kind on WETH/USDC and cbBTC/USDC; one
// re-pricing is one block; each venue then quotes through its own view within the walk's bound of
// its reference UNIV3 pool; prices move between re-pricings; a venue goes stale `blockDelay` blocks
// after the last update; LUNARBASE charges a caller it has not whitelisted the multiplier; FELTIR
// refuses a quote beyond its cumulative limit.

const devnet = useDevnet()
let market: PropAmmMarket
let keeper: PropAmmKeeper
beforeAll(async () => {
  market = await createPropAmmMarket({ devnet, executor: '0x5000000000000000000000000000000000000e0c' })
  keeper = await startPropAmmKeeper({ devnet, propAmms: market.propAmms, intervalMs: 0 })
})
afterAll(async () => {
  await keeper?.stop()
})

const slot0Abi = parseAbi(['function slot0() view returns (uint160 sqrtPriceX96, int24 tick)'])
const feltirAbi = parseAbi(['function remainingIn(address, address) view returns (uint256)'])

/** The venue's own quote for `amountIn` of `tokenIn`, asked by `from` (default the swap router). */
async function quote(venue: PropAmmVenue, tokenIn: Address, amountIn: bigint, from: Address = market.executor) {
  const tokenOut = tokenIn === venue.tokens[0] ? venue.tokens[1] : venue.tokens[0]
  const { target, callData } = propAmmQuoteCall({ dex: venue.dex, entry: venue.entry, tokenIn, tokenOut, amountIn })
  const { data } = await devnet.publicClient.call({ to: target, data: callData, account: from })
  return decodePropAmmQuote(venue.dex, data as Hex)
}

/** USDC out per whole base unit at the reference pool's price (float: for a bound only). */
async function referencePrice(venue: PropAmmVenue): Promise<number> {
  const [sqrtPriceX96] = await devnet.publicClient.readContract({ address: venue.reference, abi: slot0Abi, functionName: 'slot0' })
  const raw = (Number(sqrtPriceX96) / 2 ** 96) ** 2
  const baseIsToken0 = BigInt(venue.tokens[0]) < BigInt(venue.tokens[1])
  const decimals = { WETH: 18, cbBTC: 8 }[venue.symbols[0]] as number
  return (baseIsToken0 ? raw : 1 / raw) * 10 ** (decimals - 6)
}

test('every kind on both pairs; one re-pricing is one block and makes every venue quote near its reference', async () => {
  const { venues } = market.propAmms
  for (const base of ['WETH', 'cbBTC'])
    assert.deepEqual(
      venues.filter((v) => v.symbols[0] === base).map((v) => v.dex),
      ['PROPSWAP', 'TESSERA', 'ELFOMOFI', 'LUNARBASE', 'FELTIR'],
    )
  const before = await devnet.publicClient.getBlockNumber()
  assert.equal(await keeper.tick(), before + 1n)
  for (const venue of venues) {
    const [unit, whole] = venue.symbols[0] === 'WETH' ? [10n ** 16n, 100] : [10n ** 5n, 1000] // 0.01 WETH, 0.001 cbBTC
    const out = await quote(venue, venue.tokens[0], unit)
    const price = (Number(out) / 1e6) * whole
    const reference = await referencePrice(venue)
    // Within the walk's 0.2 % of the reference, less the fee and the small trade's impact.
    assert.ok(Math.abs(price / reference - 1) < 0.004, `${venue.dex} ${venue.symbols[0]}: ${price} vs ${reference}`)
    assert.ok((await quote(venue, venue.tokens[1], 1_000_000_000n)) > 0n, `${venue.dex}: quotes USDC -> base`)
  }
})

test('prices move between re-pricings; a venue not re-priced for its block delay goes stale', async () => {
  const venue = market.propAmms.venues.find((v) => v.dex === 'ELFOMOFI') as PropAmmVenue
  const amount = 10n ** 18n
  const seen = new Set<bigint>()
  for (let i = 0; i < 4; i++) {
    await keeper.tick()
    seen.add(await quote(venue, venue.tokens[0], amount))
  }
  assert.ok(seen.size > 1, 'the random walk moves the price')
  await devnet.testClient.mine({ blocks: venue.blockDelay - 1 })
  assert.ok((await quote(venue, venue.tokens[0], amount)) > 0n, 'fresh for blockDelay blocks')
  await devnet.testClient.mine({ blocks: 1 })
  assert.equal(await quote(venue, venue.tokens[0], amount), 0n, 'stale after them')
})

test('LUNARBASE charges callers it has not whitelisted the multiplier; FELTIR refuses beyond its cumulative limit', async () => {
  await keeper.tick()
  const lunar = market.propAmms.venues.find((v) => v.dex === 'LUNARBASE') as PropAmmVenue
  const amount = 10n ** 18n
  const lunarAbi = parseAbi(['function quoteXToY(uint256 dx) view returns (uint256 dy, uint160 pNext, uint256 fee)'])
  const quoteBy = async (account: Address) =>
    await devnet.publicClient.readContract({ address: lunar.address, abi: lunarAbi, functionName: 'quoteXToY', args: [amount], account })
  const [router, other] = [await quoteBy(market.executor), await quoteBy(devnet.account)]
  assert.ok(router[2] > 0n)
  assert.equal(other[2], router[2] * LUNARBASE_OTHER_CALLER_FEE_MULTIPLIER, 'the fee times the multiplier')
  assert.equal(other[0] + other[2], router[0] + router[2], 'the same gross output')
  assert.equal(await quote(lunar, lunar.tokens[0], amount), router[0], 'quoteExactIn asked by the router: its fee')
  const feltir = market.propAmms.venues.find((v) => v.dex === 'FELTIR') as PropAmmVenue
  const remaining = await devnet.publicClient.readContract({
    address: feltir.address,
    abi: feltirAbi,
    functionName: 'remainingIn',
    args: [feltir.tokens[0], feltir.tokens[1]],
  })
  assert.ok(remaining > 0n)
  await assert.rejects(quote(feltir, feltir.tokens[0], remaining + 1n), /SwapLimitExceeded|revert/)
})
