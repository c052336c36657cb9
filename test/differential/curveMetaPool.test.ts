import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Abi, Address } from 'viem'
import { createCurveMetaPool } from '../../src/devnet/createCurveMetaPool.ts'
import { createCurvePlainPool } from '../../src/devnet/createCurvePlainPool.ts'
import { deployCurveStableSwap } from '../../src/devnet/deployCurveStableSwap.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng } from './createPrng.ts'
import { testTokenAbi } from './harnessContracts.ts'
import { rampCurveAmplification } from './rampCurveAmplification.ts'
import { runCurveReference } from './runCurveReference.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

// CURVE meta pools: our stand-in of the legacy factory meta pool (contracts/curve/CurveMetaPool.sol)
// over our legacy plain pool of 2 or 3 coins, against the meta template of the Python reference
// (test/crosscheck/curve_stableswap.py), which follows the base pool's deposit fee, LP minting,
// one-coin withdrawal and virtual price apart from the contracts. Random deposits into both pools,
// random fees, A ramps caught mid-way on either pool; trades are `exchange_underlying` between
// any two of the coin and the base coins (into the base pool, out of it, or through its own
// exchange), and some `exchange` between the meta pool's two coins. The executed amount must equal
// the reference exactly, and revert exactly when it does.
const SEED = Number(process.env.DIFF_SEED ?? 2122)
const STATES = Number(process.env.DIFF_CURVE_META_STATES ?? 80)
const TRADES_PER_STATE = 5
const TIME_BUDGET_MS = 300_000
const RECIPIENT: Address = '0x000000000000000000000000000000000000c0de'

const { CurveMetaPool, CurvePlainPool } = loadStandInArtifacts({ protocol: 'curve' })
const session = useDifferentialSession()

type Token = { address: Address; decimals: number }
type Setup = { base: Address; baseAbi: Abi; baseCoins: Token[]; meta: Address; coin: Token }
type Case = { label: string; reference: Record<string, unknown>; chain: string }

test('CURVE meta pools: exchange_underlying and exchange equal an independent implementation', { timeout: 900_000 }, async () => {
  const { devnet } = session
  const prng = createPrng({ seed: SEED })
  const { factory } = await deployCurveStableSwap({ devnet })
  const max = 2n ** 255n
  const token = async (decimals: number): Promise<Token> => {
    const address = await deployTestToken({ devnet, name: `M${decimals}`, symbol: `M${decimals}`, decimals })
    await writeContractAndWait({ devnet, address, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, max] })
    return { address, decimals }
  }
  const setups: Setup[] = []
  for (let p = 0; p < 6; p++) {
    const n = 2 + (p % 2)
    const baseCoins: Token[] = []
    for (let c = 0; c < n; c++) baseCoins.push(await token(prng.pick([6, 6, 8, 18, 18])))
    const { pool: base } = await createCurvePlainPool({
      devnet,
      factory,
      coins: baseCoins,
      A: BigInt(prng.pick([100, 200, 1000])),
      fee: prng.bigint(0n, 20_000_000n),
    })
    const coin = await token(prng.pick([2, 6, 18]))
    const { pool: meta } = await createCurveMetaPool({
      devnet,
      factory,
      coin,
      basePool: base,
      A: BigInt(prng.pick([10, 100, 500])),
      fee: prng.bigint(0n, 40_000_000n),
    })
    for (const c of [...baseCoins, coin]) {
      await writeContractAndWait({ devnet, address: c.address, abi: testTokenAbi, functionName: 'approve', args: [base, max] })
      await writeContractAndWait({ devnet, address: c.address, abi: testTokenAbi, functionName: 'approve', args: [meta, max] })
    }
    await writeContractAndWait({ devnet, address: base, abi: testTokenAbi, functionName: 'approve', args: [meta, max] })
    const baseAbi = (CurvePlainPool.abi as readonly { type: string; name?: string; inputs?: { type: string }[] }[]).filter(
      (item) => item.name !== 'add_liquidity' || item.inputs?.[0].type === `uint256[${n}]`,
    ) as Abi
    setups.push({ base, baseAbi, baseCoins, meta, coin })
  }

  const cases: Case[] = []
  const seen = { underlyingIn: 0, underlyingOut: 0, baseToBase: 0, metaExchange: 0, ramping: 0 }
  let snapshotBase = await devnet.testClient.snapshot()
  const started = Date.now()
  for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
    snapshotBase = await revertToSnapshot({ testClient: devnet.testClient, id: snapshotBase })
    const { base, baseAbi, baseCoins, meta, coin } = setups[s % setups.length]
    const whole = prng.logBigint(1000n, 10n ** 9n)
    const baseAmounts = baseCoins.map(
      (c) => whole * prng.logBigint(1n, 100n) * 10n ** BigInt(c.decimals) + prng.bigint(0n, 10n ** BigInt(c.decimals)),
    )
    await writeContractAndWait({ devnet, address: base, abi: baseAbi, functionName: 'add_liquidity', args: [baseAmounts, 0n] })
    // A second, one-sided deposit: the base pool off balance, its admin share apart.
    const k = prng.int(0, baseCoins.length - 1)
    const extra = baseAmounts.map((_, m) => (m === k ? prng.logBigint(1n, baseAmounts[k]) : 0n))
    await writeContractAndWait({ devnet, address: base, abi: baseAbi, functionName: 'add_liquidity', args: [extra, 0n] })
    const lp = (await balanceOf(base, devnet.account)) as bigint
    const metaAmounts = [whole * prng.logBigint(1n, 100n) * 10n ** BigInt(coin.decimals) + 1n, prng.bigint(lp / 10n, lp)]
    await writeContractAndWait({ devnet, address: meta, abi: CurveMetaPool.abi, functionName: 'add_liquidity', args: [metaAmounts, 0n] })
    if (prng.chance(0.4)) {
      const [pool, abi] = prng.chance(0.5) ? [meta, CurveMetaPool.abi as Abi] : [base, baseAbi]
      if (await rampCurveAmplification({ devnet, prng, pool, abi })) seen.ramping++
    }
    const state = async (pool: Address, abi: Abi, coins: Address[]) => {
      const [initialA, futureA, initialATime, futureATime, fee] = await Promise.all(
        ['initial_A', 'future_A', 'initial_A_time', 'future_A_time', 'fee'].map((f) => read(pool, abi, f) as Promise<bigint>),
      )
      const balances = await Promise.all(coins.map((_, m) => read(pool, abi, 'balances', [BigInt(m)]) as Promise<bigint>))
      const held = await Promise.all(coins.map((c) => balanceOf(c, pool)))
      return { initialA, futureA, initialATime, futureATime, fee, balances, held }
    }
    const baseState = {
      ...(await state(
        base,
        baseAbi,
        baseCoins.map((c) => c.address),
      )),
      totalSupply: await read(base, baseAbi, 'totalSupply'),
    }
    const metaState = await state(meta, CurveMetaPool.abi as Abi, [coin.address, base])
    const underlying = [coin, ...baseCoins]
    let snapshot = await devnet.testClient.snapshot()
    for (let t = 0; t < TRADES_PER_STATE; t++) {
      const kind = prng.chance(0.2) ? 'exchange' : 'underlying'
      const count = kind === 'exchange' ? 2 : underlying.length
      const i = prng.int(0, count - 1)
      const j = (i + prng.int(1, count - 1)) % count
      const inputBalance = kind === 'exchange' ? metaState.balances[i] : i === 0 ? metaState.balances[0] : baseState.balances[i - 1]
      const dx = prng.chance(0.08) ? prng.logBigint(inputBalance * 10n ** 6n + 1n, 2n ** 200n) : prng.logBigint(1n, inputBalance * 3n + 10n)
      const tokenOut = kind === 'exchange' ? [coin.address, base][j] : underlying[j].address
      const tokenIn = kind === 'exchange' ? [coin.address, base][i] : underlying[i].address
      const senderHeld = await balanceOf(tokenIn, devnet.account)
      const before = await balanceOf(tokenOut, RECIPIENT)
      const receipt = await writeContractAndWait({
        devnet,
        address: meta,
        abi: CurveMetaPool.abi,
        functionName: kind === 'exchange' ? 'exchange' : 'exchange_underlying',
        args: [i, j, dx, 0n, RECIPIENT],
        throwOnRevert: false,
        gas: 3_000_000n,
      })
      const chain = receipt.status === 'success' ? String((await balanceOf(tokenOut, RECIPIENT)) - before) : 'reverted'
      if (kind === 'exchange') seen.metaExchange++
      else if (i > 0 && j > 0) seen.baseToBase++
      else if (i > 0) seen.underlyingIn++
      else seen.underlyingOut++
      const timestamp = (await devnet.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp
      const json = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))
      cases.push({
        label: `seed=${SEED} state=${s} trade=${t} meta=${meta} ${kind} i=${i} j=${j} dx=${dx}`,
        chain,
        reference: {
          template: 'meta',
          kind,
          timestamp: timestamp.toString(),
          i,
          j,
          dx: dx.toString(),
          senderHeld: senderHeld.toString(),
          meta: json({ ...metaState, decimals: coin.decimals }),
          base: json({ ...baseState, coins: baseCoins.map((c) => ({ decimals: c.decimals, kind: 'plain' })) }),
        },
      })
      snapshot = await revertToSnapshot({ testClient: devnet.testClient, id: snapshot })
    }
  }

  const answers = runCurveReference({ inputs: cases.map((c) => c.reference) })
  const mismatches = cases.flatMap((c, k) => {
    const said = answers[k].exchange.out ?? 'reverted'
    return said === c.chain ? [] : [`${c.label}: chain=${c.chain} reference=${JSON.stringify(answers[k].exchange)}`]
  })
  const reverts = cases.filter((c) => c.chain === 'reverted').length
  console.log(
    `curve meta pools (seed ${SEED}): ${cases.length} trades, ${mismatches.length} mismatches, ${reverts} reverts; ${JSON.stringify(seen)}`,
  )
  assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} disagreements between the chain and the reference`)
  assert.ok(cases.length >= 300 && reverts > 10 && reverts < cases.length / 3, `${cases.length} trades, ${reverts} reverts`)
  assert.ok(
    seen.underlyingIn > 50 && seen.underlyingOut > 50 && seen.baseToBase > 30 && seen.metaExchange > 30 && seen.ramping > 10,
    JSON.stringify(seen),
  )

  function read(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) {
    return devnet.publicClient.readContract({ address, abi, functionName, args })
  }
  function balanceOf(address: Address, owner: Address) {
    return devnet.publicClient.readContract({ address, abi: testTokenAbi, functionName: 'balanceOf', args: [owner] }) as Promise<bigint>
  }
})
