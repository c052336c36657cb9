import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Abi, Address } from 'viem'
import { createCurvePlainPool } from '../../src/devnet/createCurvePlainPool.ts'
import { type CurveCoin, createCurveStableSwapPool } from '../../src/devnet/createCurveStableSwapPool.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployCurveStableSwap } from '../../src/devnet/deployCurveStableSwap.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadCurveStableSwapNgArtifact } from '../../src/devnet/loadCurveStableSwapNgArtifact.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng, type Prng } from './createPrng.ts'
import { testTokenAbi } from './harnessContracts.ts'
import { rampCurveAmplification } from './rampCurveAmplification.ts'
import { runCurveReference } from './runCurveReference.ts'
import { runStableSwapModel } from './runStableSwapModel.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

// CURVE StableSwap, NG and legacy. NG: Curve's own pool (CurveStableSwapNG.vy v7.0.0 as deployed,
// compiled with Vyper 0.3.10 from the source Pygments' PyPI distribution ships) against a second
// implementation of its published math in Python with exact integers
// (test/crosscheck/curve_stableswap.py) and, where A is whole, curvesim's pool.
// Random pools of 2 to 4 coins (decimals 2 to 18; plain, oracle-rated and ERC-4626 coins whose
// rates move between states), random imbalanced deposits, a prior swap in half the states (admin
// balances and oracles no longer at their start), random fees and off-peg multipliers, and A ramps
// caught mid-way. Each trade: the pool's `get_dy` (through our views stand-in) and its `exchange`
// must equal the reference exactly, and revert exactly when it does. Legacy: our stand-in of the
// pre-NG factory plain pool (contracts/curve/CurvePlainPool.sol), 2 and 3 plain coins, static fees,
// the same deposits, prior swaps and ramps, against the same reference's legacy template. Original:
// our stand-in of curve-contract's 3pool-era template (contracts/curve/CurveOriginalPool.sol: A
// unscaled, a stored admin fee, `exchange` paying its caller and returning nothing), 2 and 3 plain
// coins, admin fees from none to all, the same deposits, prior swaps and ramps, against the
// reference's original template (written from StableSwap3Pool.vy apart from the other two).
// The solver's model (solver-rs/src/pools/stableswap) is held to the chain too: what `exchange` pays
// and the pool's balances after it, from the state its wire form carries (the pool's views at the
// block, `stored_rates` included, and the timestamp of the block that swaps), through its example
// (the service's quotes through Curve are held to the chain in test/e2e/backToBackTrades.test.ts).
const SEED = Number(process.env.DIFF_SEED ?? 2121)
const STATES = Number(process.env.DIFF_CURVE_STATES ?? 120)
const TRADES_PER_STATE = 5
const TIME_BUDGET_MS = 360_000
const RECIPIENT: Address = '0x000000000000000000000000000000000000c0fe'

const ng = await loadCurveStableSwapNgArtifact()
const { CurveOriginalPool, CurvePlainPool, CurveRateOracle, CurveRateVault } = loadStandInArtifacts({ protocol: 'curve' })
const session = useDifferentialSession()

type PoolSetup = { template: 'ng' | 'legacy' | 'original'; pool: Address; abi: Abi; coins: (CurveCoin & { underlyingDecimals?: number })[] }
type Case = {
  label: string
  reference: Record<string, unknown>
  model: Record<string, unknown>
  chainExchange: string
  chainGetDy: string
  chainRates?: string[]
  chainBalancesAfter?: string[]
}

test(
  'CURVE StableSwap NG, legacy and original: get_dy and exchange equal an independent implementation',
  { timeout: 900_000 },
  async () => {
    const { devnet } = session
    const prng = createPrng({ seed: SEED })
    const { factory } = await deployCurveStableSwap({ devnet })
    const max = 2n ** 255n

    const token = async (decimals: number) => {
      const address = await deployTestToken({ devnet, name: `D${decimals}`, symbol: `D${decimals}`, decimals })
      await writeContractAndWait({ devnet, address, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, max] })
      return address
    }
    const oracles: Address[] = []
    const vaults: Address[] = []
    const setups: PoolSetup[] = []
    // Twelve pools: 2, 3 and 4 coins, each coin plain, oracle-rated or an ERC-4626 vault.
    for (let p = 0; p < 12; p++) {
      const n = 2 + (p % 3)
      const coins: PoolSetup['coins'] = []
      for (let c = 0; c < n; c++) {
        const kind = c === 0 && p % 4 === 0 ? 'plain' : prng.pick(['plain', 'plain', 'oracle', 'erc4626'] as const)
        // Our ERC-4626 stand-in has 18 decimals; its asset any.
        const decimals = kind === 'erc4626' ? 18 : prng.pick([2, 6, 6, 8, 12, 18, 18, 18])
        if (kind === 'plain') coins.push({ address: await token(decimals), decimals, kind })
        else if (kind === 'oracle') {
          const oracle = await deployContractAndWait({ devnet, artifact: CurveRateOracle, args: [10n ** 18n] })
          oracles.push(oracle)
          coins.push({ address: await token(decimals), decimals, kind, oracle })
        } else {
          const underlyingDecimals = prng.pick([6, 8, 18])
          const asset = await token(underlyingDecimals)
          const address = await deployContractAndWait({
            devnet,
            artifact: CurveRateVault,
            args: ['Vault', 'vTKN', asset, 10n ** BigInt(underlyingDecimals)],
          })
          await writeContractAndWait({ devnet, address, abi: CurveRateVault.abi, functionName: 'mint', args: [devnet.account, max] })
          vaults.push(address)
          coins.push({ address, decimals, kind, underlyingDecimals })
        }
      }
      const { pool } = await createCurveStableSwapPool({
        devnet,
        factory,
        coins,
        A: BigInt(prng.pick([10, 100, 200, 1000, 5000])),
        fee: 4_000_000n,
        offpegFeeMultiplier: 20_000_000_000n,
      })
      for (const coin of coins)
        await writeContractAndWait({ devnet, address: coin.address, abi: testTokenAbi, functionName: 'approve', args: [pool, max] })
      setups.push({ template: 'ng', pool, abi: ng.abi, coins })
    }
    // Six legacy plain pools (our stand-in of the pre-NG factory template), then four of the original
    // template (our stand-in of 3pool's, its A given as it is stored, admin fees from none to all):
    // 2 and 3 plain coins, static fees.
    for (let p = 0; p < 10; p++) {
      const template = p < 6 ? 'legacy' : 'original'
      const n = 2 + (p % 2)
      const coins: PoolSetup['coins'] = []
      for (let c = 0; c < n; c++) {
        const decimals = prng.pick([2, 6, 6, 8, 12, 18, 18, 18])
        coins.push({ address: await token(decimals), decimals, kind: 'plain' })
      }
      const A = BigInt(prng.pick([10, 100, 200, 1000, 5000]))
      const fee = prng.chance(0.15) ? 0n : prng.bigint(1n, 50_000_000n)
      const pool =
        template === 'legacy'
          ? (await createCurvePlainPool({ devnet, factory, coins, A, fee })).pool
          : await deployContractAndWait({
              devnet,
              artifact: CurveOriginalPool,
              args: [
                devnet.account,
                coins.map((c) => c.address),
                coins.map((c) => c.decimals),
                A,
                fee,
                prng.pick([0n, 5_000_000_000n, 5_000_000_000n, 10_000_000_000n]),
              ],
            })
      for (const coin of coins)
        await writeContractAndWait({ devnet, address: coin.address, abi: testTokenAbi, functionName: 'approve', args: [pool, max] })
      // The template's add_liquidity takes uint256[N_COINS]: this pool's arity only.
      const artifact = template === 'legacy' ? CurvePlainPool : CurveOriginalPool
      const abi = (artifact.abi as readonly { type: string; name?: string; inputs?: { type: string }[] }[]).filter(
        (item) => item.name !== 'add_liquidity' || item.inputs?.[0].type === `uint256[${n}]`,
      ) as Abi
      setups.push({ template, pool, abi, coins })
    }

    const cases: Case[] = []
    const seen = {
      legacy: 0,
      original: 0,
      originalRamping: 0,
      ramping: 0,
      fractionalA: 0,
      offpeg: 0,
      oracle: 0,
      erc4626: 0,
      priorSwap: 0,
      coins: { 2: 0, 3: 0, 4: 0 } as Record<number, number>,
    }
    const gasByPool: Record<string, bigint[]> = {}
    let base = await devnet.testClient.snapshot()
    const started = Date.now()
    for (let s = 0; s < STATES && Date.now() - started < TIME_BUDGET_MS; s++) {
      base = await revertToSnapshot({ testClient: devnet.testClient, id: base })
      const { template, pool, abi, coins } = setups[s % setups.length]
      const n = coins.length
      seen.coins[n]++
      if (template === 'legacy') seen.legacy++
      if (template === 'original') seen.original++
      // Rates: oracle rates 0.5–3 (18 decimals), vault shares worth 0.5–3 underlying whole units.
      const rateInfo = []
      for (const coin of coins) {
        if (coin.kind === 'oracle') {
          const rate = prng.bigint(5n * 10n ** 17n, 3n * 10n ** 18n)
          await writeContractAndWait({
            devnet,
            address: coin.oracle as Address,
            abi: CurveRateOracle.abi,
            functionName: 'setRate',
            args: [rate],
          })
          rateInfo.push({ decimals: coin.decimals, kind: 'oracle', oracleRate: rate.toString() })
          seen.oracle++
        } else if (coin.kind === 'erc4626') {
          const unit = 10n ** BigInt(coin.underlyingDecimals as number)
          const assetsPerShare = prng.bigint(unit / 2n, unit * 3n)
          await writeContractAndWait({
            devnet,
            address: coin.address,
            abi: CurveRateVault.abi,
            functionName: 'setAssetsPerShare',
            args: [assetsPerShare],
          })
          rateInfo.push({
            decimals: coin.decimals,
            kind: 'erc4626',
            assetsPerShare: assetsPerShare.toString(),
            underlyingDecimals: coin.underlyingDecimals,
          })
          seen.erc4626++
        } else rateInfo.push({ decimals: coin.decimals, kind: 'plain' })
      }
      // Deposits: a whole-token size, each coin skewed up to 1000:1 (rarely 10^6:1).
      const whole = prng.logBigint(1n, 10n ** 9n)
      const amounts = coins.map(
        (c) =>
          whole * prng.logBigint(1n, prng.chance(0.85) ? 1000n : 10n ** 6n) * 10n ** BigInt(c.decimals) +
          prng.bigint(0n, 10n ** BigInt(c.decimals)),
      )
      const deposited = await writeContractAndWait({
        devnet,
        address: pool,
        abi,
        functionName: 'add_liquidity',
        args: [amounts, 0n],
        throwOnRevert: false,
      })
      if (deposited.status !== 'success') continue
      if (template === 'ng') {
        const fee = prng.chance(0.15) ? 0n : prng.bigint(1n, 50_000_000n)
        const ceiling = (5n * 10n ** 19n) / (fee === 0n ? 1n : fee)
        const offpeg = prng.chance(0.25)
          ? prng.pick([0n, 10n ** 10n])
          : prng.bigint(10n ** 10n, ceiling < 10n ** 11n ? ceiling : 10n ** 11n)
        await writeContractAndWait({ devnet, address: pool, abi, functionName: 'set_new_fee', args: [fee, offpeg] })
        if (offpeg > 10n ** 10n) seen.offpeg++
      }
      if (prng.chance(0.5)) {
        const [i, j] = twoIndexes(prng, n)
        const dx = prng.logBigint(1n, amounts[i])
        const prior = await writeContractAndWait({
          devnet,
          address: pool,
          abi,
          functionName: 'exchange',
          args: [i, j, dx, 0n],
          throwOnRevert: false,
        })
        if (prior.status === 'success') seen.priorSwap++
      }
      // A ramp may start a day after the last; the trades land somewhere inside it.
      if (prng.chance(0.45) && (await rampCurveAmplification({ devnet, prng, pool, abi }))) {
        seen.ramping++
        if (template === 'original') seen.originalRamping++
      }
      const balances = await poolBalances(template, pool, abi, n)
      const chainRates = template === 'ng' ? ((await read(pool, abi, 'stored_rates')) as bigint[]).map(String) : undefined
      const [initialA, futureA, initialATime, futureATime, feeNow] = await Promise.all(
        ['initial_A', 'future_A', 'initial_A_time', 'future_A_time', 'fee'].map((f) => read(pool, abi, f) as Promise<bigint>),
      )
      const offpegNow = template === 'ng' ? ((await read(pool, abi, 'offpeg_fee_multiplier')) as bigint) : 0n
      const adminFee = template === 'original' ? { adminFee: String(await read(pool, abi, 'admin_fee')) } : {}
      // The original template's exchange pays its caller (no receiver form).
      const payee = template === 'original' ? devnet.account : RECIPIENT
      let snapshot = await devnet.testClient.snapshot()
      for (let t = 0; t < TRADES_PER_STATE; t++) {
        const [i, j] = twoIndexes(prng, n)
        // Mostly 1 wei to 10x the input balance; sometimes nothing or far beyond (the revert paths).
        const dx = prng.chance(0.04)
          ? 0n
          : prng.chance(0.1)
            ? prng.logBigint(balances[i] * 10n ** 6n + 1n, 2n ** 200n)
            : prng.logBigint(1n, balances[i] * 10n + 10n)
        const viewTimestamp = await latestTimestamp()
        const chainGetDy = await devnet.publicClient.readContract({ address: pool, abi, functionName: 'get_dy', args: [i, j, dx] }).then(
          (v) => String(v),
          () => 'reverted',
        )
        const tokenBalanceOut = (await devnet.publicClient.readContract({
          address: coins[j].address,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [pool],
        })) as bigint
        const before = await balanceOf(coins[j].address, payee)
        const receipt = await writeContractAndWait({
          devnet,
          address: pool,
          abi,
          functionName: 'exchange',
          args: template === 'original' ? [i, j, dx, 0n] : [i, j, dx, 0n, RECIPIENT],
          throwOnRevert: false,
          gas: 3_000_000n,
        })
        const timestamp = (await devnet.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp
        const chainExchange = receipt.status === 'success' ? String((await balanceOf(coins[j].address, payee)) - before) : 'reverted'
        const chainBalancesAfter = receipt.status === 'success' ? (await poolBalances(template, pool, abi, n)).map(String) : undefined
        if (receipt.status === 'success') (gasByPool[`${template} ${n} coins`] ??= []).push(receipt.gasUsed)
        const amp = ampAt({ initialA, futureA, initialATime, futureATime }, timestamp)
        if (template !== 'original' && amp % 100n !== 0n) seen.fractionalA++
        cases.push({
          label: `seed=${SEED} state=${s} trade=${t} ${template} pool=${pool} n=${n} i=${i} j=${j} dx=${dx}`,
          chainExchange,
          chainGetDy,
          chainRates,
          chainBalancesAfter,
          model: {
            pool: {
              template,
              balances: balances.map(String),
              rates: chainRates ?? coins.map((c) => (10n ** BigInt(36 - c.decimals)).toString()),
              fee: feeNow.toString(),
              offpegFeeMultiplier: offpegNow.toString(),
              initialA: initialA.toString(),
              futureA: futureA.toString(),
              initialATime: initialATime.toString(),
              futureATime: futureATime.toString(),
              timestamp: timestamp.toString(),
              ...adminFee,
            },
            i,
            j,
            dx: dx.toString(),
          },
          reference: {
            template,
            coins: rateInfo,
            balances: balances.map(String),
            tokenBalanceOut: tokenBalanceOut.toString(),
            initialA: initialA.toString(),
            futureA: futureA.toString(),
            initialATime: initialATime.toString(),
            futureATime: futureATime.toString(),
            timestamp: timestamp.toString(),
            viewTimestamp: viewTimestamp.toString(),
            fee: feeNow.toString(),
            offpeg: offpegNow.toString(),
            ...adminFee,
            i,
            j,
            dx: dx.toString(),
          },
        })
        snapshot = await revertToSnapshot({ testClient: devnet.testClient, id: snapshot })
      }
    }

    const answers = runCurveReference({ inputs: cases.map((c) => c.reference) })
    const modelAnswers = runStableSwapModel({ cases: cases.map((c) => c.model) })
    const mismatches: string[] = []
    const tally = {
      exchanged: 0,
      exchangeReverts: 0,
      getDyReverts: 0,
      viewDiffersFromExchange: 0,
      curvesimCompared: 0,
      modelBalancesCompared: 0,
    }
    for (const [k, c] of cases.entries()) {
      const r = answers[k]
      const m = modelAnswers[k]
      if ((m.out ?? 'reverted') !== c.chainExchange)
        mismatches.push(`${c.label}: exchange chain=${c.chainExchange} model=${JSON.stringify(m)}`)
      if (c.chainBalancesAfter && m.balances) {
        tally.modelBalancesCompared++
        if (JSON.stringify(m.balances) !== JSON.stringify(c.chainBalancesAfter))
          mismatches.push(`${c.label}: balances after chain=${c.chainBalancesAfter} model=${m.balances}`)
      }
      const said = (a: { out?: string; error?: string }) => a.out ?? 'reverted'
      if (c.chainRates && JSON.stringify(r.rates) !== JSON.stringify(c.chainRates))
        mismatches.push(`${c.label}: stored_rates chain=${c.chainRates} reference=${r.rates}`)
      if (said(r.exchange) !== c.chainExchange)
        mismatches.push(`${c.label}: exchange chain=${c.chainExchange} reference=${JSON.stringify(r.exchange)}`)
      if (said(r.get_dy ?? {}) !== c.chainGetDy)
        mismatches.push(`${c.label}: get_dy chain=${c.chainGetDy} reference=${JSON.stringify(r.get_dy)}`)
      if (r.curvesim !== undefined && r.curvesim !== 'skipped' && r.exchange.out !== undefined) {
        tally.curvesimCompared++
        if (r.curvesim !== r.exchange.out) mismatches.push(`${c.label}: curvesim=${r.curvesim} reference=${r.exchange.out}`)
      }
      if (c.chainExchange === 'reverted') tally.exchangeReverts++
      else tally.exchanged++
      if (c.chainGetDy === 'reverted') tally.getDyReverts++
      else if (c.chainGetDy !== c.chainExchange) tally.viewDiffersFromExchange++
    }
    const gas = Object.entries(gasByPool).map(([kind, g]) => {
      g.sort((a, b) => (a < b ? -1 : 1))
      return `${kind} ${g[0]}/${g[g.length >> 1]}/${g[g.length - 1]}`
    })
    console.log(
      `curve stableswap (seed ${SEED}): ${cases.length} trades, ${mismatches.length} mismatches; ${JSON.stringify(tally)} ${JSON.stringify(seen)}; exchange tx gas min/median/max: ${gas.join(', ')}`,
    )
    assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} disagreements between the chain and the reference`)
    assert.ok(cases.length >= 300, `too few trades: ${cases.length}`)
    assert.ok(
      tally.exchanged > cases.length / 2 &&
        tally.exchangeReverts > 30 &&
        tally.getDyReverts > 30 &&
        tally.modelBalancesCompared === tally.exchanged,
      JSON.stringify(tally),
    )
    assert.ok(
      seen.legacy > 20 &&
        seen.original > 15 &&
        seen.originalRamping > 3 &&
        seen.fractionalA > 20 &&
        seen.offpeg > 10 &&
        seen.oracle > 10 &&
        seen.erc4626 > 10 &&
        tally.curvesimCompared > 100,
      JSON.stringify({ seen, tally }),
    )

    function read(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) {
      return devnet.publicClient.readContract({ address, abi, functionName, args })
    }
    function poolBalances(template: PoolSetup['template'], pool: Address, abi: Abi, n: number): Promise<bigint[]> {
      if (template === 'ng') return read(pool, abi, 'get_balances') as Promise<bigint[]>
      return Promise.all(Array.from({ length: n }, (_, k) => read(pool, abi, 'balances', [BigInt(k)]) as Promise<bigint>))
    }
    function balanceOf(address: Address, owner: Address) {
      return devnet.publicClient.readContract({ address, abi: testTokenAbi, functionName: 'balanceOf', args: [owner] }) as Promise<bigint>
    }
    async function latestTimestamp() {
      return (await devnet.publicClient.getBlock({ blockTag: 'latest' })).timestamp
    }
  },
)

function twoIndexes(prng: Prng, n: number): [number, number] {
  const i = prng.int(0, n - 1)
  const j = (i + prng.int(1, n - 1)) % n
  return [i, j]
}

/** The pool's _A() at a timestamp: linear between the ramp's ends (the reference recomputes it apart). */
function ampAt(a: { initialA: bigint; futureA: bigint; initialATime: bigint; futureATime: bigint }, timestamp: bigint): bigint {
  if (timestamp >= a.futureATime) return a.futureA
  const elapsed = timestamp - a.initialATime
  const span = a.futureATime - a.initialATime
  return a.futureA > a.initialA
    ? a.initialA + ((a.futureA - a.initialA) * elapsed) / span
    : a.initialA - ((a.initialA - a.futureA) * elapsed) / span
}
