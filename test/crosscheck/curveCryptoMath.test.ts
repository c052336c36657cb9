import assert from 'node:assert/strict'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'
import type { Abi, Address } from 'viem'
import { compiledContractsPath } from '../../src/artifacts/compiledContractsPath.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { loadCurveCryptoMathArtifact } from '../../src/devnet/loadCurveCryptoMathArtifact.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'
import { runPythonReference } from './runPythonReference.ts'

// Curve's tricrypto-ng AMM math contract (CurveCryptoMathOptimized3.vy v2.0.0, what every
// tricrypto-ng pool calls for its invariant, its swap output and its spot price), compiled with
// Vyper 0.4.3 from the source Vyper's own PyPI distribution ships, on anvil against curvesim's
// port of the same math (curve_crypto_math.py). Random states: A·N^N and gamma over their whole
// allowed ranges (and a little outside), balances from 0.1 to 10^7 whole units scaled to 18
// decimals, imbalanced up to 1:400 (and beyond, where the math refuses). Per state: `newton_D`,
// `get_y` for a trade of up to the whole input balance (the output coin's new balance and K0),
// `newton_D` again with that K0 as its first guess (as the pool's `exchange` calls it), and
// `get_p`. Every answer must equal curvesim's, and each side must refuse exactly where the other
// does. This proves the math contract; the tricrypto-ng pool contract (fees, `tweak_price`, the
// price oracle) is not shipped by any registry package and is not covered (docs/dex-kinds.md).

const SEED = Number(process.env.CROSSCHECK_SEED ?? 2121)
const STATES = Number(process.env.CROSSCHECK_CURVE_CRYPTO_STATES ?? 400)
const PYTHON = fileURLToPath(new URL('./curve_crypto_math.py', import.meta.url))
const VENV_PYTHON = join(compiledContractsPath().root, 'build', 'vyper', 'venv-0.4.3', 'bin', 'python')
const E18 = 10n ** 18n
// A_MULTIPLIER · N^N: the contract's MIN_A and MAX_A.
const MIN_A = (27n * 10_000n) / 100n
const MAX_A = 27n * 10_000n * 1000n
const MIN_GAMMA = 10n ** 10n
const MAX_GAMMA = 5n * 10n ** 16n

type Answer = { out: string[] } | { error: string }
type Case = { fn: 'newton_D' | 'get_y' | 'get_p'; [k: string]: unknown }

const devnet = useDevnet()

function randomState(prng: Prng) {
  const ANN = prng.chance(0.03) ? prng.pick([MIN_A - 1n, MAX_A + 1n]) : prng.logBigint(MIN_A, MAX_A)
  const gamma = prng.chance(0.03) ? prng.pick([MIN_GAMMA - 1n, MAX_GAMMA + 1n]) : prng.logBigint(MIN_GAMMA, MAX_GAMMA)
  const scale = prng.logBigint(E18 / 10n, 10n ** 25n)
  // Each coin's value a factor 1/20 to 20 of the scale; now and then 1/2,000 (refused).
  const x = [0, 1, 2].map(() => (scale * prng.logBigint(1n, 400n)) / (prng.chance(0.04) ? 100_000n : 20n))
  return { ANN, gamma, x }
}

test(`CURVE tricrypto-ng math: Curve's own contract equals curvesim on ${STATES} states`, { timeout: 600_000 }, async () => {
  const prng = createPrng({ seed: SEED })
  const artifact = await loadCurveCryptoMathArtifact()
  const abi = artifact.abi as Abi
  const math: Address = await deployContractAndWait({ devnet, artifact })
  const call = async (functionName: string, args: readonly unknown[]): Promise<Answer> => {
    try {
      const out = await devnet.publicClient.readContract({ address: math, abi, functionName, args })
      return { out: (Array.isArray(out) ? out : [out]).map((v) => `${v}`) }
    } catch (error) {
      return { error: (error as Error).name }
    }
  }
  const cases: Case[] = []
  const chain: Answer[] = []
  const s = (v: bigint) => `${v}`
  for (let k = 0; k < STATES; k++) {
    const { ANN, gamma, x } = randomState(prng)
    cases.push({ fn: 'newton_D', ANN: s(ANN), gamma: s(gamma), x: x.map(s), K0_prev: '0' })
    const d = await call('newton_D', [ANN, gamma, x])
    chain.push(d)
    // D for the questions that need one: the chain's, or a plausible one where it refused.
    const D = 'out' in d ? BigInt(d.out[0]) : x.reduce((a, b) => a + b)
    const i = prng.int(0, 2)
    const j = (i + prng.int(1, 2)) % 3
    const traded = [...x]
    traded[i] += (x[i] * prng.logBigint(1n, 1_000_000n)) / 1_000_000n
    cases.push({ fn: 'get_y', ANN: s(ANN), gamma: s(gamma), x: traded.map(s), D: s(D), i: j })
    const y = await call('get_y', [ANN, gamma, traded, D, BigInt(j)])
    chain.push(y)
    if ('out' in y) {
      // The pool's exchange: the output coin at its new balance, then D again from K0.
      const after = [...traded]
      after[j] = BigInt(y.out[0])
      cases.push({ fn: 'newton_D', ANN: s(ANN), gamma: s(gamma), x: after.map(s), K0_prev: y.out[1] })
      chain.push(await call('newton_D', [ANN, gamma, after, BigInt(y.out[1])]))
    }
    cases.push({ fn: 'get_p', A: s(ANN), gamma: s(gamma), x: x.map(s), D: s(D) })
    chain.push(await call('get_p', [x, D, [ANN, gamma]]))
  }
  const reference = runPythonReference<Answer>({ script: PYTHON, cases, python: VENV_PYTHON })
  const mismatches: string[] = []
  const tally = { answered: 0, refused: 0, byFn: {} as Record<string, number> }
  for (const [k, answer] of chain.entries()) {
    const want = reference[k]
    const same = 'out' in answer ? 'out' in want && JSON.stringify(answer.out) === JSON.stringify(want.out) : 'error' in want
    if (!same) mismatches.push(`${JSON.stringify(cases[k])}: chain=${JSON.stringify(answer)} curvesim=${JSON.stringify(want)}`)
    if ('out' in answer) {
      tally.answered++
      tally.byFn[cases[k].fn] = (tally.byFn[cases[k].fn] ?? 0) + 1
    } else tally.refused++
  }
  console.log(
    `curve crypto math cross-check (seed ${SEED}): ${chain.length} calls, ${mismatches.length} mismatches; ${JSON.stringify(tally)}`,
  )
  assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} disagreements between Curve's math contract and curvesim`)
  assert.ok(tally.answered > chain.length * 0.7 && tally.refused > 10, `too few answers or refusals: ${JSON.stringify(tally)}`)
})
