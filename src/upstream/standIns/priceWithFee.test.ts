import assert from 'node:assert/strict'
import { test } from 'vitest'
import { constantProductMarket } from './constantProductMarket.ts'
import { priceWithFee } from './priceWithFee.ts'

const A = '0x4200000000000000000000000000000000000006'
const B = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const market = constantProductMarket({
  pools: [{ tokenA: A, tokenB: B, reserveA: 10n ** 21n, reserveB: 3n * 10n ** 12n, feeBps: 30, gasUnits: 150_000n }],
})
const trade = { tokenIn: A, tokenOut: B, amountIn: 10n ** 19n } as const

test('a fee on the output is floored off what the route pays; on the input, the route swaps the rest', async () => {
  const gross = (await market(trade))!.amountOut
  assert.deepEqual(await priceWithFee({ market, trade }), { amountOut: gross, gasUnits: 150_000n, feeAmount: 0n })
  const out = (await priceWithFee({ market, trade, fee: { ppm: 2_500n, takenFrom: 'tokenOut' } }))!
  assert.equal(out.feeAmount, (gross * 25n) / 10_000n)
  assert.equal(out.amountOut, gross - out.feeAmount)
  const inFee = (await priceWithFee({ market, trade, fee: { ppm: 2_500n, takenFrom: 'tokenIn' } }))!
  assert.equal(inFee.feeAmount, 25n * 10n ** 15n)
  assert.equal(inFee.amountOut, (await market({ ...trade, amountIn: trade.amountIn - inFee.feeAmount }))!.amountOut)
  // Concave: a fee before the swap leaves the taker a little more than the same fee after it.
  assert.ok(inFee.amountOut > out.amountOut)
  assert.equal(await priceWithFee({ market, trade, fee: { ppm: 1_000_000n, takenFrom: 'tokenIn' } }), undefined)
})
