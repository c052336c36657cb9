import assert from 'node:assert/strict'
import { test } from 'vitest'
import { getAmounts, Pool } from '@pancakeswap/infinity-sdk'
import { Token } from '@pancakeswap/swap-sdk-core'
import type { PoolInput } from '../../bindings/types.ts'
import { CROSSCHECK_TOKENS, useCrosscheckSolver } from './useCrosscheckSolver.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'
import { randomPositions } from '../differential/randomPositions.ts'
import { MAX_TICK, MIN_TICK, sqrtRatioAtTick } from '../fixtures/sqrtRatioAtTick.ts'

// The solver's PANCAKE_INFINITY_CL pool against PancakeSwap's own SDK (`@pancakeswap/infinity-sdk`):
// the swap fee composed by its `calculateSwapFee(protocolFee, lpFee)` for the trade's direction
// (protocol fees up to Infinity's 4,000 pips), then its CL pool's swap loop (V3 tick walk, word by
// word). Thousands of random pools and trades, dust to deeper than the pool: the same output, or
// both refuse (the SDK's swap leaves input unspent at the price limit, or pays more than the
// Vault's int128 settles, where the contract reverts; the solver refuses both).
// The SDK's own MAX_PROTOCOL_FEE constant says 1,000 (it checks bin pools with it); the contract's
// ProtocolFeeLibrary caps at 4,000, which is what the model and this check follow.
//
// The package does not export `calculateSwapFee`; its bin-pool `getAmounts` does call it with the
// protocol fee of the trade's direction, and with 10^6 wei in and a deep bin its total fee,
// ceil(10^6 · fee · 10^12 / 10^18), is the composed fee in pips exactly: `composedSwapFee` reads it
// there. It always asks for a swap for Y with the direction's protocol fee in the X slot: the
// other direction's maximum-input formula overflows on a deep bin (it answers a negative fee, and
// a CL pool given a negative fee never ends its swap loop).

/** PancakeSwap's own composition of one direction's protocol fee with the LP fee, in pips. */
function composedSwapFee(protocolFeePips: number, lpFee: number): bigint {
  const bin = 8_388_608n
  const binPool = {
    activeId: bin,
    binStep: 1n,
    lpFee: BigInt(lpFee),
    protocolFees: [BigInt(protocolFeePips), 0n],
    reserveOfBin: { [Number(bin)]: { reserveX: 10n ** 40n, reserveY: 10n ** 40n } },
  }
  const { totalFees } = getAmounts(binPool as never, true, 10n ** 6n)
  const fee = totalFees[0]
  // A fee outside [lpFee, lpFee + protocol fee] would be a misread of the SDK, not its composition.
  assert.ok(fee >= BigInt(lpFee) && fee <= BigInt(lpFee + protocolFeePips), `composed fee ${fee} for ${protocolFeePips}/${lpFee}`)
  return fee
}

const SEED = Number(process.env.CROSSCHECK_SEED ?? 4000)
const STATES = Number(process.env.CROSSCHECK_INFINITY_STATES ?? 1500)
const TRADES_PER_STATE = 2
const INT128_MAX = 2n ** 127n - 1n
const { token0: TOKEN0, token1: TOKEN1 } = CROSSCHECK_TOKENS

const solver = useCrosscheckSolver()

type State = {
  id: string
  input: PoolInput
  lpFee: number
  protocolFee: number
  tick: number
  sqrtPriceX96: bigint
  liquidity: bigint
  spacing: number
  ticks: { index: number; liquidityGross: bigint; liquidityNet: bigint }[]
}

function randomState(prng: Prng, s: number): State {
  const spacing = prng.chance(0.7) ? prng.pick([1, 10, 50, 200]) : prng.int(1, 500)
  const tick = prng.int(MIN_TICK + 1000, MAX_TICK - 1000)
  const low = sqrtRatioAtTick(tick)
  const sqrtPriceX96 = low + prng.bigint(0n, sqrtRatioAtTick(tick + 1) - low - 1n)
  const lpFee = prng.chance(0.7) ? prng.pick([100, 500, 2500, 10_000]) : prng.int(0, 200_000)
  const side = () => (prng.chance(0.25) ? 0 : prng.chance(0.5) ? prng.int(1, 4000) : prng.pick([1000, 2500, 4000]))
  const protocolFee = prng.chance(0.2) ? 0 : (side() << 12) | side()
  const gross = new Map<number, bigint>()
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const p of randomPositions({ prng, currentTick: tick, tickSpacing: spacing })) {
    for (const [t, delta] of [
      [p.tickLower, p.liquidity],
      [p.tickUpper, -p.liquidity],
    ] as const) {
      gross.set(t, (gross.get(t) ?? 0n) + p.liquidity)
      net.set(t, (net.get(t) ?? 0n) + delta)
    }
    if (p.tickLower <= tick && tick < p.tickUpper) liquidity += p.liquidity
  }
  const ticks = [...gross.keys()]
    .sort((a, b) => a - b)
    .map((index) => ({ index, liquidityGross: gross.get(index)!, liquidityNet: net.get(index)! }))
  const id = `0x${(BigInt(s) + 1n).toString(16).padStart(64, '0')}`
  const input: PoolInput = {
    id,
    dex: 'PANCAKE_INFINITY_CL',
    tokens: [TOKEN0, TOKEN1],
    state: {
      model: 'concentrated',
      sqrtPriceX96: sqrtPriceX96.toString(),
      tick,
      liquidity: liquidity.toString(),
      tickSpacing: spacing,
      feePips: lpFee,
      protocolFee,
      ticks: ticks.filter((t) => t.liquidityNet !== 0n).map((t) => [t.index, t.liquidityNet.toString()]),
    },
  }
  return { id, input, lpFee, protocolFee, tick, sqrtPriceX96, liquidity, spacing, ticks }
}

test(
  `PANCAKE_INFINITY_CL: the solver and @pancakeswap/infinity-sdk agree on ${STATES * TRADES_PER_STATE} random swaps`,
  { timeout: 600_000 },
  async () => {
    const prng = createPrng({ seed: SEED })
    const states = Array.from({ length: STATES }, (_, s) => randomState(prng, s))
    for (let i = 0; i < states.length; i += 500) await solver().upsertPools(states.slice(i, i + 500).map((s) => s.input))
    const [t0, t1] = [new Token(8453, TOKEN0, 18, 'T0'), new Token(8453, TOKEN1, 18, 'T1')]

    const mismatches: string[] = []
    const tally = { paid: 0, stoppedShort: 0, aboveInt128: 0, withProtocolFee: 0, aboveV4Cap: 0 }
    for (const state of states) {
      for (let t = 0; t < TRADES_PER_STATE; t++) {
        const zeroForOne = t % 2 === 0
        const protocol = zeroForOne ? state.protocolFee & 0xfff : state.protocolFee >> 12
        // Pancake's composition: protocol fee first, then the LP fee on what is left.
        const swapFee = composedSwapFee(protocol, state.lpFee)
        const pool = new Pool({
          poolType: 'CL',
          tokenA: t0,
          tokenB: t1,
          fee: Number(swapFee),
          protocolFee: 0,
          sqrtRatioX96: state.sqrtPriceX96,
          liquidity: state.liquidity,
          tickCurrent: state.tick,
          ticks: state.ticks,
          tickSpacing: state.spacing,
        })
        const depth = state.liquidity > 0n ? state.liquidity : 10n ** 18n
        const amountIn = prng.logBigint(1n, depth * 100n)
        const sdk = await (
          pool as unknown as { swap: (z: boolean, a: bigint) => Promise<{ amountSpecifiedRemaining: bigint; amountCalculated: bigint }> }
        ).swap(zeroForOne, amountIn)
        // The Vault settles each side as int128 (the pool's BalanceDelta, SafeCast): the contract
        // reverts on a larger output, which the SDK's plain bigint loop does not model.
        const sdkAmountOut = -sdk.amountCalculated
        const sdkOut = sdk.amountSpecifiedRemaining === 0n && sdkAmountOut <= INT128_MAX ? sdkAmountOut.toString() : undefined
        const ours = await solver()
          .simulate({ poolId: state.id, tokenIn: zeroForOne ? TOKEN0 : TOKEN1, amountIn: amountIn.toString() })
          .then(
            (r) => r.amountOut,
            () => undefined,
          )
        if (ours !== sdkOut)
          mismatches.push(
            `${state.id} fee ${state.lpFee}/${state.protocolFee} spacing ${state.spacing} tick ${state.tick} zeroForOne ${zeroForOne} in ${amountIn}: solver ${ours}, sdk ${sdkOut}`,
          )
        if (sdk.amountSpecifiedRemaining === 0n && sdkAmountOut > INT128_MAX) tally.aboveInt128++
        else if (sdkOut === undefined) tally.stoppedShort++
        else tally.paid++
        if (protocol > 0) tally.withProtocolFee++
        if (protocol > 1000) tally.aboveV4Cap++
      }
    }
    console.log(
      `infinity cross-check (seed ${SEED}): ${STATES * TRADES_PER_STATE} swaps, ${mismatches.length} mismatches; ${JSON.stringify(tally)}`,
    )
    assert.deepEqual(mismatches.slice(0, 5), [])
    assert.ok(tally.paid > STATES && tally.aboveV4Cap > STATES / 10, JSON.stringify(tally))
  },
)
