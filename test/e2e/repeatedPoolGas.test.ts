import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address, Hex } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { seededDexIds } from '../../src/devnet/seed/baseMarketPools.ts'
import { baseMarketTokens } from '../../src/devnet/seed/baseMarketTokens.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { calldataGas } from '../../src/quote/calldataGas.ts'
import { createQuoteService } from '../../src/quote/createQuoteService.ts'
import { routerOverheadGas } from '../../src/quote/estimateRouterOverheadGas.ts'
import type { QuoteRoutePlan } from '../../src/quote/quoteTypes.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import { fundTrader } from '../../src/devnet/fundTrader.ts'
import { useSeededMarket } from '../fixtures/useSeededMarket.ts'

/** Each leg's input, in USD: small enough to cross no initialized tick in any seeded pool. */
const LEG_USD = 200
/** Pools measured per kind (the pools the kind's quotes pick, over its seeded pools in order). */
const POOLS_PER_KIND = 3
/**
 * How far the registry's figure may be from a pool's measured saving. Pools of one kind agree to
 * a few hundred gas when their code paths are the same, and differ by up to ~7,000 where they are
 * not (a stable against a volatile Aerodrome pool); the registry takes the middle. 5,000 gas is
 * about 4 % of a leg, 1–2 % of a split plan's gas.
 */
const TOLERANCE_GAS = 5_000

const embedded = useSeededMarket()

// A leg through a pool that an earlier leg of the same transaction used costs less than the
// registry's cold figure: the pool's account and slots are warm (EIP-2929), its writes hit slots
// already dirty (EIP-2200), and some pools write once per block (Algebra's plugin timepoint). The
// saving differs by kind, so the solver carries it per kind (`gas_repeat_saving`, registry.rs) and
// prices it in every plan (docs/gas-model.md). Measured here as a user's plans run: one route of
// one leg, against two such routes through the same pool, each from the same chain state.
test('a repeated leg saves what the registry says for its kind, measured on every seeded kind', { timeout: 600_000 }, async () => {
  const { devnet, solver, market } = embedded
  const { market: seeded, publicClient, testClient } = devnet
  const router = seeded.router!
  const [trader, recipient] = seeded.accounts.slice(1, 3)
  const wallet = await fundTrader({ devnet, privateKey: trader.privateKey, spender: router })
  await market.start()
  const service = createQuoteService({ solver, market, chainId: seeded.chainId, weth: seeded.weth, router, getGasPriceWei: async () => 0n })
  let snapshot = await testClient.snapshot()
  let nonce = await publicClient.getTransactionCount({ address: trader.address })

  const symbolOf = (address: Address) =>
    Object.entries(seeded.tokens).find(([, t]) => t.address.toLowerCase() === address.toLowerCase())![0]
  const execute = async (plan: QuoteRoutePlan) => {
    const { data } = encodeSwapExactIn({ plan, recipient: recipient.address, deadline: 10n ** 10n })
    const hash = await wallet.sendTransaction({
      to: router,
      data,
      nonce: nonce++,
      gas: 8_000_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 0n,
    })
    const receipt = await waitForReceipt({ publicClient, hash })
    assert.equal(receipt.status, 'success', `${plan.routes[0].legs[0].dex}: the swap reverted`)
    snapshot = await revertToSnapshot({ testClient, id: snapshot })
    nonce = await publicClient.getTransactionCount({ address: trader.address })
    return { gasUsed: Number(receipt.gasUsed), calldata: calldataGas(data as Hex) }
  }

  // The seeded pools of each kind, and Curve's plain pools (NG and legacy; its crossings count coins).
  const measuredDexIds: DexId[] = [...seededDexIds, 'CURVE']
  const poolsOf = (dex: DexId): { tokens: readonly Address[] }[] =>
    dex === 'CURVE'
      ? seeded.curve.pools.filter((p) => p.template !== 'meta').map((p) => ({ tokens: p.coins }))
      : seeded.pools.filter((p) => p.dex === dex)
  const rows: { dex: DexId; pool: string; measured: number; registry: number }[] = []
  for (const dex of measuredDexIds) {
    for (const pool of poolsOf(dex)) {
      if (rows.filter((r) => r.dex === dex).length === POOLS_PER_KIND) break
      const symbol = symbolOf(pool.tokens[0])
      const { decimals } = seeded.tokens[symbol]
      const priceUsd = baseMarketTokens.find((t) => t.symbol === symbol)!.priceUsd
      const amountIn = (BigInt(Math.round((LEG_USD / priceUsd) * 1e6)) * 10n ** BigInt(decimals)) / 10n ** 6n
      const quoted = await service.quote({
        chainId: seeded.chainId,
        tokenIn: pool.tokens[0],
        tokenOut: pool.tokens[1],
        amountIn: amountIn.toString(),
        slippageBps: 0,
        maxHops: 1,
        splitEnabled: false,
        allowedDexes: [dex],
        feeBps: 0,
      })
      const [route] = quoted.routes
      const { poolId } = route.legs[0]
      if (rows.some((r) => r.pool === poolId)) continue
      // Both halves of the repeated trade must cross nothing: their sum crosses nothing.
      const [tokenIn, tokenOut] = pool.tokens
      const both = await solver.simulate({ poolId, tokenIn, tokenOut, amountIn: (2n * amountIn).toString() })
      if (dex !== 'CURVE') assert.deepEqual([both.crossings, both.words], [0, 0], `${dex} ${poolId}: $${2 * LEG_USD} crosses ticks`)
      const leg = await solver.simulate({ poolId, tokenIn, tokenOut, amountIn: amountIn.toString() })

      const loose = { ...route, legs: route.legs.map((l) => ({ ...l, minOut: '0' })) }
      const once = await execute({ ...quoted, minAmountOut: '0', routes: [loose] })
      const twice = await execute({ ...quoted, amountIn: (2n * amountIn).toString(), minAmountOut: '0', routes: [loose, loose] })
      // What the second route would cost with its pool cold, less what it cost.
      const cold = routerOverheadGas.extraRoute + routerOverheadGas.perLeg + leg.gasUnits + (twice.calldata - once.calldata)
      rows.push({ dex, pool: poolId, measured: cold - (twice.gasUsed - once.gasUsed), registry: leg.repeatGasSaving })
    }
  }
  console.log(
    ['kind, pool: saving measured / registry', ...rows.map((r) => `${r.dex} ${r.pool.slice(0, 12)}: ${r.measured} / ${r.registry}`)].join(
      '\n',
    ),
  )

  for (const dex of measuredDexIds)
    assert.ok(
      rows.some((r) => r.dex === dex),
      `${dex}: no pool measured`,
    )
  const off = rows.filter((r) => Math.abs(r.measured - r.registry) > TOLERANCE_GAS)
  assert.deepEqual(
    off.map((r) => `${r.dex} ${r.pool}: measured ${r.measured}, registry ${r.registry}`),
    [],
  )
})
