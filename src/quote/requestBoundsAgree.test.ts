import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'vitest'
import { createSyntheticMarket } from '../../test/fixtures/syntheticMarket.ts'
import { useLoadedSolver } from '../../test/fixtures/useLoadedSolver.ts'
import { TimeBudgetMs, tradeFields } from '../http/schemas/quote.ts'
import { Bps } from '../http/schemas/scalars.ts'

// A quote request is checked twice: by the TypeBox schema (HTTP and the quote service) and by the
// solver's request.rs, its guard at the FFI. The guard must accept every request the schema
// accepts, and refuse with the same field past the bounds they share.

const requestRs = readFileSync(join(import.meta.dirname, '..', '..', 'solver-rs', 'src', 'route', 'request.rs'), 'utf8')
const rustRange = (name: string): [number, number] => {
  const found = requestRs.match(new RegExp(`pub const ${name}: std::ops::RangeInclusive<u32> = ([\\d_]+)..=([\\d_]+);`))
  assert.ok(found, name)
  return [Number(found[1].replaceAll('_', '')), Number(found[2].replaceAll('_', ''))]
}
const rustConstant = (name: string): number => {
  const found = requestRs.match(new RegExp(`pub const ${name}: u32 = ([\\d_]+);`))
  assert.ok(found, name)
  return Number(found[1].replaceAll('_', ''))
}

/** An integer schema's bounds (TypeBox keeps them as plain JSON Schema keywords). */
type Bounds = { minimum: number; maximum: number }
const budget = TimeBudgetMs as unknown as Bounds
const bps = Bps as unknown as Bounds

const market = createSyntheticMarket({ pools: 12, seed: 5 })
const trade = market.trade(1)
const solver = useLoadedSolver({ config: { nativeToken: '0x4200000000000000000000000000000000000006' }, pools: market.pools })

const ask = (patch: Record<string, unknown>) =>
  solver.quote({ tokenIn: trade.tokenIn, tokenOut: trade.tokenOut, amountIn: trade.amountIn, slippageBps: 50, maxHops: 2, ...patch }).then(
    () => 'accepted',
    (err: { field?: string }) => `refused ${err.field}`,
  )

test('the source bounds: the schema range lies within the guard, sharing its maximum', () => {
  const fields = tradeFields({
    chainId: 8453,
    weth: '0x4200000000000000000000000000000000000006',
    router: '0x4200000000000000000000000000000000000006',
    maxFeeBps: 10_000,
  })
  const [budgetMin, budgetMax] = rustRange('TIME_BUDGET_MS')
  assert.equal(budget.maximum, budgetMax)
  assert.ok(budget.minimum >= budgetMin, `schema minimum ${budget.minimum} below the guard's ${budgetMin}`)
  assert.equal(bps.maximum, rustConstant('BPS'))
  assert.equal(bps.minimum, 0)
  assert.equal((fields.maxHops as unknown as Bounds).minimum, 1)
  assert.match(requestRs, /self\.max_hops == Some\(HopCount\(0\)\)/)
  assert.equal((fields.allowedDexes as unknown as { minItems: number }).minItems, 1)
  assert.match(requestRs, /self\.allowed_dexes\.as_ref\(\)\.is_some_and\(Vec::is_empty\)/)
})

test("the guard accepts the schema's boundary values and refuses past them naming the field", async () => {
  const [budgetMin] = rustRange('TIME_BUDGET_MS')
  for (const timeBudgetMs of [budget.minimum, budget.maximum])
    assert.equal(await ask({ timeBudgetMs }), 'accepted', `timeBudgetMs ${timeBudgetMs}`)
  for (const timeBudgetMs of [budgetMin - 1, budget.maximum + 1])
    assert.equal(await ask({ timeBudgetMs }), 'refused timeBudgetMs', `timeBudgetMs ${timeBudgetMs}`)
  for (const slippageBps of [bps.minimum, bps.maximum]) assert.equal(await ask({ slippageBps }), 'accepted', `slippageBps ${slippageBps}`)
  assert.equal(await ask({ slippageBps: bps.maximum + 1 }), 'refused slippageBps')
  assert.equal(await ask({ maxHops: 1 }), 'accepted')
  assert.equal(await ask({ maxHops: 0 }), 'refused maxHops')
  assert.equal(await ask({ allowedDexes: [] }), 'refused allowedDexes')
  assert.equal(await ask({ amountIn: '0' }), 'refused amountIn')
})
