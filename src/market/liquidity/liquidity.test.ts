import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { PoolInput } from '../../../bindings/types.ts'
import { leftOutReason } from './leftOutReason.ts'
import { poolDepthWei } from './poolDepthWei.ts'
import { PRICE_ONE_X128, tokenPricesInWeth } from './tokenPricesInWeth.ts'
import { virtualReserves } from './virtualReserves.ts'

const WETH = '0x4200000000000000000000000000000000000006'
const USDC = '0x00000000000000000000000000000000000000c1'
const TAIL = '0x00000000000000000000000000000000000000d1'
const ISLAND = '0x00000000000000000000000000000000000000e1'
const FAR = '0x00000000000000000000000000000000000000f1'
const E18 = 10n ** 18n
const v2 = (id: string, a: string, b: string, ra: bigint, rb: bigint): PoolInput => ({
  id,
  dex: 'UNIV2',
  tokens: [a as `0x${string}`, b as `0x${string}`],
  state: { model: 'constant_product', reserves: [ra.toString(), rb.toString()] },
})

test('virtual reserves: a concentrated pool at price 4 with L = 1e18 holds x = L/√P and y = L·√P', () => {
  const pool: PoolInput = {
    id: '0x01',
    dex: 'UNIV3',
    tokens: [WETH, USDC],
    state: {
      model: 'concentrated',
      sqrtPriceX96: (2n * 2n ** 96n).toString(),
      tick: 13863,
      liquidity: E18.toString(),
      tickSpacing: 60,
      feePips: 3000,
      ticks: [],
    },
  }
  assert.deepEqual(virtualReserves(pool), [E18 / 2n, 2n * E18])
  assert.equal(virtualReserves({ ...pool, state: { model: 'sampled', marginBps: 1, zeroForOne: [], oneForZero: [] } }), undefined)
})

test('prices spread out from WETH through pools above the floor, by the deepest pool; depth is twice the thinner side', () => {
  const pools = [
    v2('0xa', WETH, USDC, 100n * E18, 300_000n * 10n ** 6n), // 1 WETH = 3000 USDC, 200 WETH deep
    v2('0xb', WETH, USDC, E18 / 100n, 40n * 10n ** 6n), // a shallow pool at another price: not the price source
    v2('0xc', USDC, TAIL, 30_000n * 10n ** 6n, 1_000_000n * E18), // 10 WETH on the USDC side
    v2('0xd', ISLAND, FAR, E18, E18), // joined to nothing priced
  ]
  const prices = tokenPricesInWeth({ pools, weth: WETH, minLiquidityWei: E18 })
  assert.equal(prices.get(WETH.toLowerCase()), PRICE_ONE_X128)
  assert.equal(prices.get(USDC), (PRICE_ONE_X128 * 100n * E18) / (300_000n * 10n ** 6n))
  assert.ok(prices.has(TAIL), 'two hops out, through a pool above the floor')
  assert.ok(!prices.has(ISLAND))
  assert.equal(poolDepthWei({ pool: pools[0], prices }), 200n * E18 - 2n) // the USDC side, floored at each step
  const floor = { denied: new Set<string>(), prices, minLiquidityWei: E18 }
  assert.equal(leftOutReason({ pool: pools[0], ...floor }), undefined)
  assert.match(
    leftOutReason({ pool: pools[1], ...floor }) as string,
    /^liquidity \d+ wei of WETH is below the floor of 1000000000000000000$/,
  )
  assert.equal(leftOutReason({ pool: pools[2], ...floor }), undefined)
  assert.match(leftOutReason({ pool: pools[3], ...floor }) as string, /cannot be valued/)
  assert.equal(leftOutReason({ pool: pools[2], ...floor, denied: new Set([TAIL]) }), `token ${TAIL} is on the deny list`)
  assert.equal(leftOutReason({ pool: pools[3], ...floor, minLiquidityWei: 0n }), undefined, 'no floor: only the deny list applies')
})

test('a floor no pool reaches prices nothing but WETH; an empty pool is never a price source', () => {
  const pools = [v2('0xa', WETH, USDC, 0n, 0n), v2('0xb', WETH, TAIL, E18, E18)]
  const prices = tokenPricesInWeth({ pools, weth: WETH, minLiquidityWei: 10n * E18 })
  assert.deepEqual([...prices.keys()], [WETH.toLowerCase()])
})

test("a Curve pool's depth is twice its thinnest priced coin's balance, over all its coins; unpriced coins are skipped", () => {
  const curve = (balances: bigint[]): PoolInput => ({
    id: '0x03',
    dex: 'CURVE',
    tokens: [USDC, TAIL, FAR],
    state: {
      model: 'stableswap',
      template: 'ng',
      balances: balances.map(String),
      rates: ['1', '1', '1'].map((r) => (10n ** 18n * BigInt(r)).toString()),
      fee: '1000000',
      offpegFeeMultiplier: '0',
      initialA: '20000',
      futureA: '20000',
      initialATime: '0',
      futureATime: '0',
      timestamp: '0',
    },
  })
  // USDC at 1/3000 WETH a unit, TAIL at 1/6000; FAR unpriced.
  const prices = new Map([
    [USDC, PRICE_ONE_X128 / 3000n],
    [TAIL, PRICE_ONE_X128 / 6000n],
  ])
  const value = (balance: bigint, token: string) => (balance * (prices.get(token) as bigint)) / PRICE_ONE_X128
  // USDC's side (worth 1 WETH) is the thinner one; then TAIL's (0.5 WETH).
  assert.equal(poolDepthWei({ pool: curve([3000n * E18, 12_000n * E18, 1n]), prices }), 2n * value(3000n * E18, USDC))
  assert.equal(poolDepthWei({ pool: curve([3000n * E18, 3000n * E18, 1n]), prices }), 2n * value(3000n * E18, TAIL))
  assert.ok(value(3000n * E18, USDC) > E18 - 10n && value(3000n * E18, TAIL) > E18 / 2n - 10n)
})
