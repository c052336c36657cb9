import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Abi, type Address, type Hex, parseAbi } from 'viem'
import { createUniswapV2Pair } from '../../src/devnet/createUniswapV2Pair.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { readUniswapV2Pool } from '../../src/adapters/state/readUniswapV2Pool.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { type ChainOutcome, createDifferentialLedger } from './createDifferentialLedger.ts'
import { testTokenAbi } from './harnessContracts.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'
import { simulateOutcome } from './simulateOutcome.ts'

const TRADES_PER_STATE = 8
const TIME_BUDGET_MS = 120_000
const RECIPIENT: Address = '0x000000000000000000000000000000000000d1f2'
const UINT112_MAX = 2n ** 112n - 1n

export type RunConstantProductDifferentialParameters = {
  dex: 'UNIV2' | 'PANCAKE_V2'
  seed: number
  states: number
  /** Deploys the factory (`createPair`/`getPair` as Uniswap V2's) and gives the pair's ABI. */
  deploy: (parameters: { devnet: Devnet }) => Promise<{ factory: Address; pairAbi: Abi }>
  /** An output computed apart from the solver (the pair's formula, or the protocol's SDK). */
  reference: (amountIn: bigint, reserveIn: bigint, reserveOut: bigint, tokens: { tokenIn: Address; tokenOut: Address }) => bigint
}

/**
 * Registers the differential test of a V2-shaped pair kind: random reserves (dust to near uint112),
 * random trades, the pair's own K check deciding: the solver's output is paid, one more wei is
 * refused; and the chain must agree with `reference`.
 *
 * @example
 * runConstantProductDifferential({ dex: 'UNIV2', seed: 2002, states: 60, deploy, reference })
 * // a vitest test is registered: 60 random UNIV2 states, each trade's solver quote checked against the pair itself
 */
export function runConstantProductDifferential({
  dex,
  seed: SEED,
  states: STATES,
  deploy,
  reference: referenceOf,
}: RunConstantProductDifferentialParameters): void {
  const session = useDifferentialSession()

  test(`${dex} pair pays exactly what the solver simulates`, { timeout: 600_000 }, async () => {
    const { devnet, prng, solver } = await session.start({ seed: SEED })

    const decimals = [6, 8, 18] as const
    const tokens: Address[] = []
    for (const [i, d] of [...decimals, ...decimals].entries()) {
      tokens.push(await deployTestToken({ devnet, name: `T${i}`, symbol: `T${i}`, decimals: d }))
    }
    for (const token of tokens) {
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, 2n ** 200n] })
    }
    const { factory, pairAbi } = await deploy({ devnet })
    const pairs: { pair: Address; token0: Address; token1: Address }[] = []
    for (let i = 0; i < tokens.length; i += 2) {
      pairs.push(await createUniswapV2Pair({ devnet, factory, tokenA: tokens[i], tokenB: tokens[(i + 3) % tokens.length] }))
    }
    const ledger = createDifferentialLedger({ protocol: dex })
    let base = await devnet.testClient.snapshot()
    const started = Date.now()
    for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
      base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
      const { pair, token0, token1 } = prng.pick(pairs)
      // Random reserves (dust to the uint112 ceiling's neighbourhood), each side independent: any price.
      const reserve0 = prng.logBigint(1_000n, UINT112_MAX / 1000n)
      const reserve1 = prng.logBigint(1_000n, UINT112_MAX / 1000n)
      await writeContractAndWait({ devnet, address: token0, abi: testTokenAbi, functionName: 'transfer', args: [pair, reserve0] })
      await writeContractAndWait({ devnet, address: token1, abi: testTokenAbi, functionName: 'transfer', args: [pair, reserve1] })
      await writeContractAndWait({ devnet, address: pair, abi: pairAbi, functionName: 'mint', args: [devnet.account] })
      const state = await readUniswapV2Pool({ client: devnet.publicClient, pair, dex })
      const [r0, r1] = state.state.model === 'constant_product' ? state.state.reserves.map(BigInt) : [0n, 0n]
      assert.equal(r0, reserve0)
      assert.equal(r1, reserve1)
      await solver?.upsertPools([state])
      let stateSnapshot = await devnet.testClient.snapshot()

      for (let t = 0; t < TRADES_PER_STATE; t++) {
        const zeroForOne = t % 2 === 0
        const [tokenIn, tokenOut, reserveIn, reserveOut] = zeroForOne ? [token0, token1, r0, r1] : [token1, token0, r1, r0]
        // Dust to 100x the pool's own reserve of the input token, capped so balances stay below uint112.
        const amountIn = prng.logBigint(1n, reserveIn * 100n < UINT112_MAX - reserveIn ? reserveIn * 100n : UINT112_MAX - reserveIn)
        const label = `seed=${SEED} state=${s} trade=${t} pair=${pair} zeroForOne=${zeroForOne}`
        const solverOutcome = await simulateOutcome({ solver, poolId: pair, tokenIn, amountIn })
        const reference = referenceOf(amountIn, reserveIn, reserveOut, { tokenIn, tokenOut })
        // The router's V2 leg: pay the pair, then ask for the quoted output. Without a solver the
        // independent formula decides the ask; +1 must then fail the K check.
        const ask = solverOutcome?.kind === 'quoted' ? BigInt(solverOutcome.result.amountOut) : reference
        await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'transfer', args: [pair, amountIn] })
        const outs = (x: bigint) => (zeroForOne ? [0n, x] : [x, 0n])
        const overAsk = await devnet.publicClient
          .simulateContract({
            account: devnet.account,
            address: pair,
            abi: pairAbi,
            functionName: 'swap',
            args: [...outs(ask + 1n), RECIPIENT, '0x' as Hex],
          })
          .then(
            () => 'accepted',
            () => 'reverted',
          )
        const before = await devnet.publicClient.readContract({
          address: tokenOut,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [RECIPIENT],
        })
        const receipt = await writeContractAndWait({
          devnet,
          address: pair,
          abi: pairAbi,
          functionName: 'swap',
          args: [...outs(ask), RECIPIENT, '0x' as Hex],
          gas: 500_000n,
          throwOnRevert: false,
        })
        const afterBalance = await devnet.publicClient.readContract({
          address: tokenOut,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [RECIPIENT],
        })
        let chain: ChainOutcome =
          receipt.status === 'success'
            ? { kind: 'filled', amountOut: afterBalance - before, gasUsed: receipt.gasUsed }
            : { kind: 'reverted' }
        // Exactness needs both sides: the ask is paid, and one more wei is refused.
        if (chain.kind === 'filled' && overAsk === 'accepted')
          chain = { kind: 'partial', amountInUsed: amountIn, amountOut: chain.amountOut, gasUsed: chain.gasUsed }
        ledger.record({ label, amountIn, chain, solver: solverOutcome, reference })
        stateSnapshot = await revertToSnapshot({ testClient: devnet.testClient, id: stateSnapshot })
      }
    }
    console.log(ledger.summary())
    assert.deepEqual(ledger.referenceMismatches().slice(0, 5), [], 'chain disagrees with the independent reference')
    session.assertSolverMatchedChain({ ledger, minCases: 100 })
  })
}
