import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'
import type { PoolInput } from '../../bindings/types.ts'
import { runPythonReference } from './runPythonReference.ts'
import { CROSSCHECK_TOKENS, useCrosscheckSolver } from './useCrosscheckSolver.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'

// The solver's Solidly model (solver-rs/src/pools/solidly/) against a second implementation of the
// same published pool, written apart in Python with exact integers (solidly_pool.py): thousands of
// random pools, stable mostly, with decimals from 0 to 36, reserves from dust to 10^10 tokens in
// imbalances up to 10^8:1, fees 0 to 300 bps, trades from 1 wei to 100x the input reserve.
// Both must pay the same amount, or both refuse (a revert: overflow, zero divisor, no convergence,
// or swap()'s own checks).

const SEED = Number(process.env.CROSSCHECK_SEED ?? 31337)
const STATES = Number(process.env.CROSSCHECK_SOLIDLY_STATES ?? 4000)
const TRADES_PER_STATE = 2
const DECIMALS = [0, 2, 6, 6, 8, 9, 12, 18, 18, 18, 24, 30, 36] as const
const { token0: TOKEN0, token1: TOKEN1 } = CROSSCHECK_TOKENS
const PYTHON = fileURLToPath(new URL('./solidly_pool.py', import.meta.url))

const solver = useCrosscheckSolver()

type Case = {
  pool: PoolInput
  r0: bigint
  r1: bigint
  dec0: number
  dec1: number
  stable: boolean
  fee: number
  amountIn: bigint
  zeroForOne: boolean
}

function randomPool(prng: Prng, index: number): Omit<Case, 'amountIn' | 'zeroForOne'> {
  const stable = prng.chance(0.8)
  const [dec0, dec1] = [prng.pick(DECIMALS), prng.pick(DECIMALS)]
  // Whole tokens on one side, then an imbalance either way: mostly up to 1000:1, sometimes 10^8:1.
  const whole = prng.logBigint(1n, 10n ** 10n)
  const skew = prng.logBigint(1n, prng.chance(0.8) ? 1000n : 10n ** 8n)
  const [w0, w1] = prng.chance(0.5) ? [whole, whole * skew] : [whole * skew, whole]
  const r0 = w0 * 10n ** BigInt(dec0) + prng.bigint(0n, 10n ** BigInt(dec0))
  const r1 = w1 * 10n ** BigInt(dec1) + prng.bigint(0n, 10n ** BigInt(dec1))
  const fee = prng.chance(0.2) ? 0 : prng.chance(0.5) ? prng.pick([1, 5, 30, 100, 300]) : prng.int(0, 300)
  const id = `0x${(BigInt(index) + 0xa0000n).toString(16).padStart(40, '0')}`
  const pool: PoolInput = {
    id,
    dex: 'AERODROME_V2LIKE',
    tokens: [TOKEN0, TOKEN1],
    state: { model: 'solidly', reserves: [r0.toString(), r1.toString()], stable, decimals: [dec0, dec1], feeBps: fee },
  }
  return { pool, r0, r1, dec0, dec1, stable, fee }
}

test(
  `AERODROME_V2LIKE: the solver and an independent Python implementation agree on ${STATES * TRADES_PER_STATE} random swaps`,
  { timeout: 600_000 },
  async () => {
    const prng = createPrng({ seed: SEED })
    const cases: Case[] = []
    for (let s = 0; s < STATES; s++) {
      const pool = randomPool(prng, s)
      for (let t = 0; t < TRADES_PER_STATE; t++) {
        const zeroForOne = prng.chance(0.5)
        const reserveIn = zeroForOne ? pool.r0 : pool.r1
        cases.push({ ...pool, zeroForOne, amountIn: prng.logBigint(1n, reserveIn * 100n + 1n) })
      }
    }
    for (let i = 0; i < cases.length; i += 1000)
      await solver().upsertPools([...new Map(cases.slice(i, i + 1000).map((c) => [c.pool.id, c.pool])).values()])

    const answers = runPythonReference<{ out?: string; error?: string }>({
      script: PYTHON,
      cases: cases.map((c) => ({
        r0: c.r0.toString(),
        r1: c.r1.toString(),
        dec0: c.dec0,
        dec1: c.dec1,
        stable: c.stable,
        fee: c.fee,
        amountIn: c.amountIn.toString(),
        zeroForOne: c.zeroForOne,
      })),
    })

    const mismatches: string[] = []
    const tally = { paid: 0, stable: 0, bothRefused: 0, refusals: {} as Record<string, number>, decimalsOver18: 0 }
    for (const [i, c] of cases.entries()) {
      const solved = await solver()
        .simulate({ poolId: c.pool.id, tokenIn: c.zeroForOne ? TOKEN0 : TOKEN1, amountIn: c.amountIn.toString() })
        .then(
          (r) => ({ out: r.amountOut }),
          (e: Error) => ({ error: e.message }),
        )
      const reference = answers[i]
      const agree = 'out' in solved && solved.out !== undefined ? reference.out === solved.out : reference.error !== undefined
      if (!agree)
        mismatches.push(
          `case ${i}: ${JSON.stringify({ ...c, pool: undefined }, (_, v) => (typeof v === 'bigint' ? v.toString() : v))} solver=${JSON.stringify(solved)} python=${JSON.stringify(reference)}`,
        )
      if (reference.out !== undefined) {
        tally.paid++
        if (c.stable) tally.stable++
        if (c.stable && Math.max(c.dec0, c.dec1) > 18) tally.decimalsOver18++
      } else {
        tally.bothRefused += agree ? 1 : 0
        tally.refusals[reference.error as string] = (tally.refusals[reference.error as string] ?? 0) + 1
      }
    }
    console.log(`solidly cross-check (seed ${SEED}): ${cases.length} swaps, ${mismatches.length} mismatches; ${JSON.stringify(tally)}`)
    assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} disagreements between the solver and the Python implementation`)
    assert.ok(tally.stable > cases.length * 0.3 && tally.decimalsOver18 > 100, `too few paid stable swaps (${JSON.stringify(tally)})`)
    assert.ok(Object.keys(tally.refusals).length >= 2, `the refusal paths went untested: ${JSON.stringify(tally.refusals)}`)
  },
)
