import assert from 'node:assert/strict'
import { test } from 'vitest'
import { USDC, WETH, WORLD_POOLS } from '../../../test/fixtures/upstreams/standInWorld.ts'
import { constantProductMarket } from './constantProductMarket.ts'
import { latencySampler } from './latencySampler.ts'
import { scaledMarket } from './scaledMarket.ts'

test('a constant-product stand-in market: x·y = k with its fee, both directions, concave, no route elsewhere', async () => {
  const market = constantProductMarket({ pools: [WORLD_POOLS['0x']] })
  const out = async (a: bigint) => (a === 0n ? 0n : (await market({ tokenIn: WETH, tokenOut: USDC, amountIn: a }))!.amountOut)
  const r = WORLD_POOLS['0x']
  assert.equal(await out(10n ** 18n), (r.reserveB * 10n ** 18n * 9970n) / (r.reserveA * 10_000n + 10n ** 18n * 9970n))
  assert.ok((await market({ tokenIn: USDC, tokenOut: WETH, amountIn: 3000n * 10n ** 6n }))!.amountOut > 0n)
  assert.equal(await market({ tokenIn: WETH, tokenOut: '0x00000000000000000000000000000000000000a1', amountIn: 1n }), undefined)
  let previousSlope = Infinity
  for (let i = 1n; i <= 10n; i++) {
    const slope = Number((await out(i * 10n ** 19n)) - (await out((i - 1n) * 10n ** 19n)))
    assert.ok(slope < previousSlope, 'each step buys less')
    previousSlope = slope
  }
})

test('a scaled market: twice as deep means half the impact at any size, less its fee', async () => {
  const base = constantProductMarket({ pools: [WORLD_POOLS['0x']] })
  const quote = async (t: Parameters<typeof base>[0]) => (await base(t))?.amountOut
  const deep = scaledMarket({ quote, depth: { numerator: 2n, denominator: 1n }, feeBps: 0, gasUnits: 1n })
  const a = 10n ** 20n
  const baseHalf = (await base({ tokenIn: WETH, tokenOut: USDC, amountIn: a / 2n }))!.amountOut
  assert.equal((await deep({ tokenIn: WETH, tokenOut: USDC, amountIn: a }))!.amountOut, baseHalf * 2n)
  const fee = scaledMarket({ quote, depth: { numerator: 1n, denominator: 1n }, feeBps: 10, gasUnits: 1n })
  assert.equal(
    (await fee({ tokenIn: WETH, tokenOut: USDC, amountIn: a }))!.amountOut,
    ((await base({ tokenIn: WETH, tokenOut: USDC, amountIn: a }))!.amountOut * 9990n) / 10_000n,
  )
  assert.equal(await deep({ tokenIn: WETH, tokenOut: USDC, amountIn: 1n }), undefined, 'an input that scales to zero has no route')
})

test('latencies follow the log-normal with the given median and p95', () => {
  let seed = 1
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const draw = latencySampler({ p50Ms: 340, p95Ms: 500, random })
  const samples = Array.from({ length: 20_000 }, draw).sort((a, b) => a - b)
  assert.ok(Math.abs(samples[10_000] - 340) < 10, `median ${samples[10_000]}`)
  assert.ok(Math.abs(samples[19_000] - 500) < 20, `p95 ${samples[19_000]}`)
})
