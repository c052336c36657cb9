import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Abi, Address } from 'viem'
import { createCurveMetaPool } from '../../src/devnet/createCurveMetaPool.ts'
import { createCurvePlainPool } from '../../src/devnet/createCurvePlainPool.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployCurveStableSwap } from '../../src/devnet/deployCurveStableSwap.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng } from './createPrng.ts'
import { testTokenAbi } from './harnessContracts.ts'
import { runCurveReference } from './runCurveReference.ts'
import { runStableSwapModel } from './runStableSwapModel.ts'
import { useDifferentialSession } from './useDifferentialSession.ts'

// CURVE meta pools: the solver's exact model of the legacy meta templates
// (solver-rs/src/pools/stableswap/meta.rs) and the Python reference (test/crosscheck/
// curve_stableswap.py's meta template, written apart) against our stand-in on anvil
// (contracts/curve/CurveMetaPool.sol over a CurvePlainPool base of 2 or 3 coins; no registry
// package ships Curve's meta bytecode or source, docs/dex-kinds.md, CURVE). Random pools (decimals
// 2 to 18, A, fees; three on the pre-factory template, which caches the base virtual price for
// 600 s, one on MetaUSD, which does not), then a run of random `exchange_underlying` trades on each,
// every pair of underlying coins (coin → base coin through `remove_liquidity_one_coin`, base coin →
// coin through `add_liquidity`, base coin → base coin through the base pool's `exchange`), 1 wei to
// 10× the input balance. Between trades the state varies: a trade on the base pool alone (its
// virtual price moves, the cache does not), and the trade's block stamped at a random distance from
// the cache's update across the 600 s edge (updated + 1, 599, 600, 601, …), so trades price with
// a fresh cache below the base pool's price and with an expired one that they refresh. What the
// chain pays, the meta pool's balances, the base pool's balances, its LP supply and the cache after
// each trade must equal the model's from the state read before it (the Python reference: what is
// paid and the cache), and a revert must be both refusals. Two more cached pools sit on a base pool
// of the original template (our CurveOriginalPool, 3pool's: A unscaled, its own admin fee), the
// deployed pre-factory meta pools' shape (GUSD on 3pool). Starts one chain, no server;
// DIFF_META_TRADES sets the trades per pool.
const SEED = Number(process.env.DIFF_SEED ?? 2124)
const POOLS = 6
/** The pool on MetaUSD (no cache); pools from `FIRST_ORIGINAL_BASE` on sit on an original-template base. */
const METAUSD_POOL = 3
const FIRST_ORIGINAL_BASE = 4
const TRADES = Number(process.env.DIFF_META_TRADES ?? 25)
const RECIPIENT: Address = '0x000000000000000000000000000000000000c0fe'

const { CurveMetaPool, CurveOriginalPool, CurvePlainPool } = loadStandInArtifacts({ protocol: 'curve' })
// The trade's block, seconds after the cache's update: both sides of the 600 s edge.
const AFTER_UPDATE = [1n, 2n, 300n, 599n, 600n, 601n, 602n, 1200n, 3600n]
const session = useDifferentialSession()

test('CURVE meta pools: exchange_underlying equals the solver model, base pool and supply included', { timeout: 600_000 }, async () => {
  const { devnet } = session
  const prng = createPrng({ seed: SEED })
  const { factory } = await deployCurveStableSwap({ devnet })
  const max = 2n ** 255n
  const read = (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
    devnet.publicClient.readContract({ address, abi, functionName, args }) as Promise<bigint>
  const balanceOf = (token: Address, owner: Address) => read(token, testTokenAbi as Abi, 'balanceOf', [owner])
  const token = async (decimals: number) => {
    const address = await deployTestToken({ devnet, name: `M${decimals}`, symbol: `M${decimals}`, decimals })
    await writeContractAndWait({ devnet, address, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, max] })
    return address
  }
  const ramp = ['initial_A', 'future_A', 'initial_A_time', 'future_A_time', 'fee'] as const
  const stateOf = async (pool: Address, abi: Abi, n: number) => {
    const balances = await Promise.all(Array.from({ length: n }, (_, k) => read(pool, abi, 'balances', [BigInt(k)])))
    const [initialA, futureA, initialATime, futureATime, fee] = await Promise.all(ramp.map((f) => read(pool, abi, f)))
    return { balances, initialA, futureA, initialATime, futureATime, fee }
  }
  const wire = (s: Awaited<ReturnType<typeof stateOf>>, rates: bigint[], timestamp: bigint, adminFee?: bigint) => ({
    template: adminFee === undefined ? 'legacy' : 'original',
    ...(adminFee === undefined ? {} : { adminFee: adminFee.toString() }),
    balances: s.balances.map(String),
    rates: rates.map(String),
    fee: s.fee.toString(),
    offpegFeeMultiplier: '0',
    initialA: s.initialA.toString(),
    futureA: s.futureA.toString(),
    initialATime: s.initialATime.toString(),
    futureATime: s.futureATime.toString(),
    timestamp: timestamp.toString(),
  })

  type Chain = {
    out: string
    balances?: string[]
    baseBalances?: string[]
    baseSupply?: string
    baseVirtualPrice?: string
    baseCacheUpdated?: string
  }
  type Case = { label: string; model: unknown; reference: unknown; chain: Chain }
  const cases: Case[] = []
  const paths = new Set<string>()
  const originalBasePaths = new Set<string>()
  const cacheStates = { fresh: 0, expired: 0, freshBelowBase: 0 }
  for (let p = 0; p < POOLS; p++) {
    const n = 2 + (p % 2)
    const baseCoins: { address: Address; decimals: number }[] = []
    for (let c = 0; c < n; c++) {
      const decimals = prng.pick([2, 6, 6, 8, 18, 18])
      baseCoins.push({ address: await token(decimals), decimals })
    }
    const metaDecimals = prng.pick([6, 8, 18, 18])
    const coin = { address: await token(metaDecimals), decimals: metaDecimals }
    const original = p >= FIRST_ORIGINAL_BASE
    const baseA = BigInt(prng.pick([50, 100, 200, 1000]))
    const baseFee = prng.bigint(1_000_000n, 40_000_000n)
    // The original template takes A as it is stored, and its admin fee.
    const adminFee = original ? prng.pick([0n, 5_000_000_000n, 10_000_000_000n]) : undefined
    const base = original
      ? await deployContractAndWait({
          devnet,
          artifact: CurveOriginalPool,
          args: [devnet.account, baseCoins.map((c) => c.address), baseCoins.map((c) => c.decimals), baseA, baseFee, adminFee],
        })
      : (await createCurvePlainPool({ devnet, factory, coins: baseCoins, A: baseA, fee: baseFee })).pool
    const baseAbi = (
      (original ? CurveOriginalPool : CurvePlainPool).abi as readonly { type: string; name?: string; inputs?: { type: string }[] }[]
    ).filter((item) => item.name !== 'add_liquidity' || item.inputs?.[0].type === `uint256[${n}]`) as Abi
    for (const c of baseCoins)
      await writeContractAndWait({ devnet, address: c.address, abi: testTokenAbi, functionName: 'approve', args: [base, max] })
    const whole = 1_000_000n + prng.bigint(0n, 9_000_000n)
    const deposit = baseCoins.map((c) => (whole * 10n ** BigInt(c.decimals) * prng.bigint(60n, 140n)) / 100n)
    await writeContractAndWait({ devnet, address: base, abi: baseAbi, functionName: 'add_liquidity', args: [deposit, 0n] })
    const caches = p !== METAUSD_POOL
    const { pool: meta } = await createCurveMetaPool({
      devnet,
      factory,
      coin,
      basePool: base,
      A: BigInt(prng.pick([50, 100, 200, 1000])),
      fee: prng.bigint(1_000_000n, 40_000_000n),
      cachesBaseVirtualPrice: caches,
    })
    const metaAbi = CurveMetaPool.abi as Abi
    const lp = await balanceOf(base, devnet.account)
    await writeContractAndWait({ devnet, address: base, abi: baseAbi, functionName: 'approve', args: [meta, max] })
    for (const c of [coin, ...baseCoins])
      await writeContractAndWait({ devnet, address: c.address, abi: testTokenAbi, functionName: 'approve', args: [meta, max] })
    const coinAmount = (whole * 10n ** BigInt(coin.decimals) * prng.bigint(40n, 160n)) / 100n
    await writeContractAndWait({ devnet, address: meta, abi: metaAbi, functionName: 'add_liquidity', args: [[coinAmount, lp / 2n], 0n] })
    const underlying = [coin, ...baseCoins]
    const cacheOf = async () =>
      caches
        ? {
            baseVirtualPrice: String(await read(meta, metaAbi, 'base_virtual_price')),
            baseCacheUpdated: String(await read(meta, metaAbi, 'base_cache_updated')),
          }
        : {}
    const referencePool = async (address: Address, abi: Abi, state: Awaited<ReturnType<typeof stateOf>>, coins: Address[]) => ({
      balances: state.balances.map(String),
      fee: state.fee.toString(),
      initialA: state.initialA.toString(),
      futureA: state.futureA.toString(),
      initialATime: state.initialATime.toString(),
      futureATime: state.futureATime.toString(),
      held: (await Promise.all(coins.map((c) => balanceOf(c, address)))).map(String),
      totalSupply: String(await read(address, abi, 'totalSupply')),
    })
    for (let t = 0; t < TRADES; t++) {
      const i = prng.int(0, n)
      const j = (i + prng.int(1, n)) % (n + 1)
      // A trade on the base pool alone: its virtual price moves, a cached price stays.
      if (prng.chance(0.4)) {
        const bi = prng.int(0, n - 1)
        const bj = (bi + prng.int(1, n - 1)) % n
        const size = ((await read(base, baseAbi, 'balances', [BigInt(bi)])) * prng.bigint(1n, 40n)) / 100n
        // A state the base pool refuses (D not converging after the run's large trades) stays as it is.
        await writeContractAndWait({
          devnet,
          address: base,
          abi: baseAbi,
          functionName: 'exchange',
          args: [bi, bj, size, 0n],
          throwOnRevert: false,
          gas: 5_000_000n,
        })
      }
      const latest = await devnet.publicClient.getBlock({ blockTag: 'latest' })
      const cacheBefore = await cacheOf()
      const anchor = caches ? BigInt(cacheBefore.baseCacheUpdated as string) : latest.timestamp
      const wanted = anchor + prng.pick(AFTER_UPDATE)
      await devnet.testClient.setNextBlockTimestamp({ timestamp: wanted > latest.timestamp ? wanted : latest.timestamp + 1n })
      const metaState = await stateOf(meta, metaAbi, 2)
      const baseState = await stateOf(base, baseAbi, n)
      const supply = await read(base, baseAbi, 'totalSupply')
      const inputBalance = i === 0 ? metaState.balances[0] : baseState.balances[i - 1]
      const dx = prng.chance(0.03) ? 0n : prng.logBigint(1n, inputBalance * 10n + 10n)
      const reference = {
        template: 'meta',
        kind: 'underlying',
        meta: { ...(await referencePool(meta, metaAbi, metaState, [coin.address, base])), decimals: String(coin.decimals) },
        base: {
          ...(await referencePool(
            base,
            baseAbi,
            baseState,
            baseCoins.map((c) => c.address),
          )),
          coins: baseCoins.map((c) => ({ decimals: String(c.decimals), kind: 'plain' })),
          ...(original ? { template: 'original', adminFee: String(adminFee) } : {}),
        },
        i,
        j,
        dx: dx.toString(),
        senderHeld: String(await balanceOf(underlying[i].address, devnet.account)),
        ...cacheBefore,
      }
      // A drained base pool whose D does not converge has no virtual price (and every trade reverts).
      const baseVpBefore = caches ? await read(base, baseAbi, 'get_virtual_price').catch(() => undefined) : undefined
      const before = await balanceOf(underlying[j].address, RECIPIENT)
      const receipt = await writeContractAndWait({
        devnet,
        address: meta,
        abi: metaAbi,
        functionName: 'exchange_underlying',
        args: [i, j, dx, 0n, RECIPIENT],
        throwOnRevert: false,
        gas: 5_000_000n,
      })
      const timestamp = (await devnet.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp
      const paid = receipt.status === 'success'
      if (paid) paths.add(i === 0 ? 'coin→base' : j === 0 ? 'base→coin' : 'base→base')
      if (paid && original) originalBasePaths.add(i === 0 ? 'coin→base' : j === 0 ? 'base→coin' : 'base→base')
      if (caches && paid) {
        const fresh = timestamp <= BigInt(cacheBefore.baseCacheUpdated as string) + 600n
        cacheStates[fresh ? 'fresh' : 'expired'] += 1
        const baseNow = baseVpBefore ?? 0n
        if (fresh && BigInt(cacheBefore.baseVirtualPrice as string) < baseNow) cacheStates.freshBelowBase += 1
      }
      cases.push({
        label: `seed=${SEED} pool=${p} (${n} base coins${original ? ' of the original template' : ''}${caches ? ', cached' : ''}) trade=${t} i=${i} j=${j} dx=${dx}`,
        model: {
          pool: {
            ...wire(metaState, [10n ** BigInt(36 - coin.decimals), 1n], timestamp),
            base: wire(
              baseState,
              baseCoins.map((c) => 10n ** BigInt(36 - c.decimals)),
              timestamp,
              adminFee,
            ),
            baseSupply: supply.toString(),
            basePool: base,
            ...cacheBefore,
          },
          i,
          j,
          dx: dx.toString(),
        },
        reference: { ...reference, timestamp: timestamp.toString() },
        chain: paid
          ? {
              out: String((await balanceOf(underlying[j].address, RECIPIENT)) - before),
              balances: (await stateOf(meta, metaAbi, 2)).balances.map(String),
              baseBalances: (await stateOf(base, baseAbi, n)).balances.map(String),
              baseSupply: String(await read(base, baseAbi, 'totalSupply')),
              ...(await cacheOf()),
            }
          : { out: 'reverted' },
      })
    }
  }
  const answers = runStableSwapModel({ cases: cases.map((c) => c.model) })
  const references = runCurveReference({ inputs: cases.map((c) => c.reference) })
  const mismatches = cases.flatMap((c, k) => {
    const a = answers[k]
    const model =
      a.error !== undefined
        ? { out: 'reverted' }
        : {
            out: a.out,
            balances: a.balances,
            baseBalances: a.baseBalances,
            baseSupply: a.baseSupply,
            ...(a.baseVirtualPrice === undefined ? {} : { baseVirtualPrice: a.baseVirtualPrice, baseCacheUpdated: a.baseCacheUpdated }),
          }
    const r = references[k]
    const chainCache =
      c.chain.baseVirtualPrice === undefined
        ? undefined
        : { baseVirtualPrice: c.chain.baseVirtualPrice, baseCacheUpdated: c.chain.baseCacheUpdated }
    const reference = r.exchange.error !== undefined ? { out: 'reverted' } : { out: r.exchange.out, cache: r.cache }
    const chainPaid = c.chain.out === 'reverted' ? { out: 'reverted' } : { out: c.chain.out, cache: chainCache }
    return [
      ...(JSON.stringify(model) === JSON.stringify(c.chain)
        ? []
        : [`${c.label}: chain ${JSON.stringify(c.chain)}, model ${JSON.stringify(a)}`]),
      ...(JSON.stringify(reference) === JSON.stringify(chainPaid)
        ? []
        : [`${c.label}: chain ${JSON.stringify(chainPaid)}, Python reference ${JSON.stringify(r)}`]),
    ]
  })
  const paidCount = cases.filter((c) => c.chain.out !== 'reverted').length
  console.log(
    `CURVE meta: ${cases.length} trades (${paidCount} paid, paths ${[...paths].join(', ')}, over an original base ${[...originalBasePaths].join(', ')}; cached pools: ${cacheStates.fresh} paid on a fresh cache, ${cacheStates.freshBelowBase} of them below the base pool's price, ${cacheStates.expired} on an expired one), ${mismatches.length} mismatches (model and Python reference)`,
  )
  assert.deepEqual(mismatches.slice(0, 10), [])
  assert.ok(paidCount >= cases.length / 2 && paths.size === 3, `too few paid trades (${paidCount}) or paths (${[...paths].join(', ')})`)
  assert.equal(originalBasePaths.size, 3, `paths over an original base: ${[...originalBasePaths].join(', ')}`)
  assert.ok(cacheStates.freshBelowBase >= 5 && cacheStates.expired >= 5, `too few cache states: ${JSON.stringify(cacheStates)}`)
})
