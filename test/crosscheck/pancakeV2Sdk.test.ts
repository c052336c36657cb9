import assert from 'node:assert/strict'
import { test } from 'vitest'
import { CurrencyAmount, Token } from '@pancakeswap/swap-sdk-core'
import { Pair } from '@pancakeswap/v2-sdk'
import type { Address } from 'viem'
import type { PoolInput } from '../../bindings/types.ts'
import { CROSSCHECK_TOKENS, useCrosscheckSolver } from './useCrosscheckSolver.ts'
import { createPrng } from '../differential/createPrng.ts'

// The solver's PANCAKE_V2 pool (constant product, 25 bps) against PancakeSwap's own SDK
// (`@pancakeswap/v2-sdk` Pair.getOutputAmount on Base): thousands of random pairs, reserves from
// dust to the uint112 ceiling in any ratio, trades from 1 wei to 1000x the input reserve. Same
// amount, or both refuse (the SDK's InsufficientInputAmountError is the pair's zero output).

const SEED = Number(process.env.CROSSCHECK_SEED ?? 25)
const STATES = Number(process.env.CROSSCHECK_PANCAKE_V2_STATES ?? 3000)
const UINT112_MAX = 2n ** 112n - 1n
const { token0: TOKEN0, token1: TOKEN1 } = CROSSCHECK_TOKENS

const solver = useCrosscheckSolver()

test(`PANCAKE_V2: the solver and @pancakeswap/v2-sdk agree on ${STATES * 2} random swaps`, { timeout: 300_000 }, async () => {
  const prng = createPrng({ seed: SEED })
  const [t0, t1] = [new Token(8453, TOKEN0, 18, 'T0'), new Token(8453, TOKEN1, 18, 'T1')]
  const states = Array.from({ length: STATES }, (_, s) => ({
    id: `0x${(BigInt(s) + 0xb0000n).toString(16).padStart(40, '0')}`,
    reserves: [prng.logBigint(1n, UINT112_MAX), prng.logBigint(1n, UINT112_MAX)] as const,
  }))
  const pools: PoolInput[] = states.map(({ id, reserves }) => ({
    id,
    dex: 'PANCAKE_V2',
    tokens: [TOKEN0, TOKEN1],
    state: { model: 'constant_product', reserves: [reserves[0].toString(), reserves[1].toString()] },
  }))
  for (let i = 0; i < pools.length; i += 1000) await solver().upsertPools(pools.slice(i, i + 1000))

  const mismatches: string[] = []
  let paid = 0
  for (const { id, reserves } of states) {
    const pair = new Pair(CurrencyAmount.fromRawAmount(t0, reserves[0]), CurrencyAmount.fromRawAmount(t1, reserves[1]))
    for (const zeroForOne of [true, false]) {
      const [tokenIn, reserveIn] = zeroForOne ? [t0, reserves[0]] : [t1, reserves[1]]
      // The pair's balance must stay within uint112 once paid.
      const amountIn = prng.logBigint(1n, reserveIn * 1000n < UINT112_MAX - reserveIn ? reserveIn * 1000n : UINT112_MAX - reserveIn)
      const sdk = (() => {
        try {
          return pair.getOutputAmount(CurrencyAmount.fromRawAmount(tokenIn, amountIn))[0].quotient.toString()
        } catch (error) {
          return `refused: ${(error as Error).name}`
        }
      })()
      const ours = await solver()
        .simulate({ poolId: id, tokenIn: tokenIn.address as Address, amountIn: amountIn.toString() })
        .then(
          (r) => r.amountOut,
          () => undefined,
        )
      const agree = ours === undefined ? sdk.startsWith('refused') : ours === sdk
      if (!agree) mismatches.push(`${id} reserves ${reserves} zeroForOne ${zeroForOne} in ${amountIn}: solver ${ours}, sdk ${sdk}`)
      if (ours !== undefined) paid++
    }
  }
  console.log(`pancake v2 cross-check (seed ${SEED}): ${STATES * 2} swaps, ${paid} paid, ${mismatches.length} mismatches`)
  assert.deepEqual(mismatches.slice(0, 5), [])
  assert.ok(paid > STATES, `only ${paid} swaps paid anything`)
})
