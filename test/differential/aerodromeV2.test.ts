import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address, Hex } from 'viem'
import { readAerodromePool } from '../../src/adapters/state/readAerodromePool.ts'
import { createAerodromePool } from '../../src/devnet/createAerodromePool.ts'
import { deployAerodrome } from '../../src/devnet/deployAerodrome.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { type ChainOutcome, createDifferentialLedger } from './createDifferentialLedger.ts'
import { testTokenAbi, tokenBalanceOf } from './harnessContracts.ts'
import { simulateOutcome } from './simulateOutcome.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

// AERODROME_V2LIKE: our stand-in Aerodrome Pool (contracts/aerodrome/), stable and volatile, with
// tokens of 0 to 30 decimals, reserves from dust to 10^12 tokens in any ratio (set with `sync`),
// and random factory fees (custom, zero through the 420 indicator, or the defaults). Each trade is
// what our router's aerodrome_v2 leg does: pay the pool, ask for `getAmountOut`, `swap`.
const SEED = Number(process.env.DIFF_SEED ?? 6006)
const STATES = Number(process.env.DIFF_AERODROME_STATES ?? 90)
const TRADES_PER_STATE = 6
const TIME_BUDGET_MS = 240_000
const RECIPIENT: Address = '0x000000000000000000000000000000000000d1f4'
const DECIMALS = [0, 6, 8, 18, 18, 24, 30] as const

const { Pool, PoolFactory } = loadStandInArtifacts({ protocol: 'aerodrome' })
const session = useDifferentialSession()

test('AERODROME_V2LIKE stable and volatile pools pay exactly what the solver simulates', { timeout: 900_000 }, async () => {
  const { devnet, prng, solver } = await session.start({ seed: SEED })
  const tokens: { address: Address; decimals: number }[] = []
  for (const [i, decimals] of DECIMALS.entries()) {
    const address = await deployTestToken({ devnet, name: `T${i}`, symbol: `T${i}`, decimals })
    await writeContractAndWait({ devnet, address, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, 2n ** 250n] })
    tokens.push({ address, decimals })
  }
  const { factory } = await deployAerodrome({ devnet })
  const pools: { pool: Address; stable: boolean; t0: (typeof tokens)[number]; t1: (typeof tokens)[number] }[] = []
  for (let i = 0; i < tokens.length; i++) {
    for (const stable of [true, false]) {
      const [a, b] = [tokens[i], tokens[(i + 2) % tokens.length]]
      const { pool, token0 } = await createAerodromePool({ devnet, factory, tokenA: a.address, tokenB: b.address, stable })
      pools.push({ pool, stable, ...(token0 === a.address ? { t0: a, t1: b } : { t0: b, t1: a }) })
    }
  }

  const ledger = createDifferentialLedger({ protocol: 'AERODROME_V2LIKE' })
  const seen = { stable: 0, volatile: 0, zeroFee: 0, viewReverts: 0 }
  let base = await devnet.testClient.snapshot()
  const started = Date.now()
  for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
    base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
    const { pool, stable, t0, t1 } = pools[s % pools.length]
    // First deposit: equal in whole tokens for stable pools (the pool requires it), any for volatile.
    const whole = prng.logBigint(1n, 10n ** 6n)
    const [deposit0, deposit1] = stable
      ? [whole * 10n ** BigInt(t0.decimals), whole * 10n ** BigInt(t1.decimals)]
      : [prng.logBigint(10n ** 4n, 10n ** 40n), prng.logBigint(10n ** 4n, 10n ** 40n)]
    const mint = async () => {
      await transfer(t0.address, pool, deposit0)
      await transfer(t1.address, pool, deposit1)
      await writeContractAndWait({ devnet, address: pool, abi: Pool.abi, functionName: 'mint', args: [devnet.account] })
    }
    if (
      (await mint().then(
        () => true,
        () => false,
      )) === false
    )
      continue
    // Then any imbalance (sync takes the balances as reserves): from none to 10^12 tokens extra.
    const extra = (t: (typeof tokens)[number]) => (prng.chance(0.3) ? 0n : prng.logBigint(1n, 10n ** BigInt(t.decimals + 12)))
    await transfer(t0.address, pool, extra(t0))
    await transfer(t1.address, pool, extra(t1))
    await writeContractAndWait({ devnet, address: pool, abi: Pool.abi, functionName: 'sync' })
    const fee = prng.chance(0.3) ? undefined : prng.chance(0.1) ? 420 : prng.int(0, 300)
    if (fee !== undefined && fee !== 0)
      await writeContractAndWait({ devnet, address: factory, abi: PoolFactory.abi, functionName: 'setCustomFee', args: [pool, fee] })
    if (fee === 420) seen.zeroFee++
    seen[stable ? 'stable' : 'volatile']++

    const blockNumber = await devnet.publicClient.getBlockNumber({ cacheTime: 0 })
    const { input } = await readAerodromePool({ client: devnet.publicClient, pool, blockNumber })
    assert.equal(input.state.model === 'solidly' && input.state.stable, stable)
    await solver?.upsertPools([input])
    const [r0, r1] = input.state.model === 'solidly' ? input.state.reserves.map(BigInt) : [0n, 0n]
    let snapshot = await devnet.testClient.snapshot()
    for (let t = 0; t < TRADES_PER_STATE; t++) {
      const zeroForOne = t % 2 === 0
      const [tokenIn, tokenOut, reserveIn] = zeroForOne ? [t0.address, t1.address, r0] : [t1.address, t0.address, r1]
      // Dust to 30x the input side's reserve.
      const amountIn = prng.logBigint(1n, reserveIn * 30n + 10n)
      const label = `seed=${SEED} state=${s} trade=${t} pool=${pool} stable=${stable} fee=${fee ?? 'default'} dec=${t0.decimals}/${t1.decimals} zeroForOne=${zeroForOne}`
      const solverOutcome = await simulateOutcome({ solver, poolId: input.id, tokenIn, amountIn })
      const chain = await swapAsTheRouterDoes({ pool, tokenIn, tokenOut, amountIn, zeroForOne })
      if (chain.kind === 'reverted') seen.viewReverts++
      ledger.record({ label, amountIn, chain, solver: solverOutcome })
      snapshot = await revertToSnapshot({ testClient: devnet.testClient, id: snapshot })
    }
  }
  console.log(`${ledger.summary()} | ${JSON.stringify(seen)}`)
  assert.ok(seen.stable > 20 && seen.volatile > 20 && seen.zeroFee > 0, JSON.stringify(seen))
  session.assertSolverMatchedChain({ ledger, minCases: 300 })

  async function transfer(token: Address, to: Address, amount: bigint) {
    if (amount > 0n) await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'transfer', args: [to, amount] })
  }

  /** Pay the pool, ask `getAmountOut` (on the state the transfer left), swap; what arrived. */
  async function swapAsTheRouterDoes({
    pool,
    tokenIn,
    tokenOut,
    amountIn,
    zeroForOne,
  }: {
    pool: Address
    tokenIn: Address
    tokenOut: Address
    amountIn: bigint
    zeroForOne: boolean
  }): Promise<ChainOutcome> {
    const ask = await devnet.publicClient
      .readContract({ address: pool, abi: Pool.abi, functionName: 'getAmountOut', args: [amountIn, tokenIn] })
      .then(
        (v) => v as bigint,
        () => undefined,
      )
    if (ask === undefined || ask === 0n) return { kind: 'reverted' }
    await transfer(tokenIn, pool, amountIn)
    const before = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
    const receipt = await writeContractAndWait({
      devnet,
      address: pool,
      abi: Pool.abi,
      functionName: 'swap',
      throwOnRevert: false,
      gas: 5_000_000n,
      args: [zeroForOne ? 0n : ask, zeroForOne ? ask : 0n, RECIPIENT, '0x' as Hex],
    })
    if (receipt.status !== 'success') return { kind: 'reverted' }
    const after = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
    return { kind: 'filled', amountOut: after - before, gasUsed: receipt.gasUsed }
  }
})
