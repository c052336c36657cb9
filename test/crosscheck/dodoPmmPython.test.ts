import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'
import type { Address } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng } from '../differential/createPrng.ts'
import { testTokenAbi, tokenBalanceOf } from '../differential/harnessContracts.ts'
import { runPythonReference } from './runPythonReference.ts'

// DODO_V2: our PMM stand-in (contracts/dodo/DodoPmmPool.sol: DVM, DSP and DPP) against a second
// implementation of DODO's published math in Python with exact integers (dodo_pmm.py), written
// apart. Random pools of the three kinds (decimals 6, 8 or 18, prices 1e-8 to 1e8 in base units,
// K 0, 1 or between, LP fees 0 to 1 %, a maintainer fee model with a default rate and another rate
// for a second trader), random deposits, then rounds of one trade a pool: either side, 1 unit to
// twice the input reserve, now and then exactly the amount that brings R back to one, sent by one
// of two traders (the pools charge the maintainer rate of `tx.origin`). Each trade: the pool's
// `querySellBase`/`querySellQuote` and, where the reference pays, the transfer-then-`sellBase`/
// `sellQuote` must equal the reference exactly (the amount to the recipient, the maintainer's fee,
// the stored R and target when R changes); where the reference reverts, the query must revert.
const SEED = Number(process.env.DIFF_SEED ?? 2207)
const POOLS = Number(process.env.DIFF_DODO_POOLS ?? 12)
const ROUNDS = 16
const PYTHON = fileURLToPath(new URL('./dodo_pmm.py', import.meta.url))
const RECIPIENT: Address = '0x000000000000000000000000000000000000d0d1'
const MAINTAINER: Address = '0x000000000000000000000000000000000000d0d2'
// anvil's second unlocked account.
const SECOND_TRADER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ONE = 10n ** 18n

const { DodoPmmPool, DodoFeeRateModel } = loadStandInArtifacts({ protocol: 'dodo' })
const devnet = useDevnet()

type Pool = { address: Address; kind: number; base: Address; quote: Address; model: Address; rates: Map<Address, bigint> }
type Answer = { receive: string; mtFee: string; newR: number; newTarget: string } | { revert: string }

test('DODO_V2: DVM, DSP and DPP pay exactly what an independent implementation of the PMM says', { timeout: 900_000 }, async () => {
  const prng = createPrng({ seed: SEED })
  const traders: Address[] = [devnet.account, SECOND_TRADER]
  const pools: Pool[] = []
  for (let p = 0; p < POOLS; p++) {
    const kind = p % 3
    const [baseDecimals, quoteDecimals] = [prng.pick([6, 8, 18, 18]), prng.pick([6, 8, 18, 18])]
    const base = await deployTestToken({ devnet, name: 'B', symbol: 'B', decimals: baseDecimals })
    const quote = await deployTestToken({ devnet, name: 'Q', symbol: 'Q', decimals: quoteDecimals })
    for (const token of [base, quote])
      for (const trader of traders)
        await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [trader, 2n ** 200n] })
    const defaultRate = prng.pick([0n, 10n ** 15n, 10n ** 16n])
    const model = await deployContractAndWait({ devnet, artifact: DodoFeeRateModel, args: [defaultRate] })
    const rates = new Map<Address, bigint>([[devnet.account, defaultRate]])
    const secondRate = prng.pick([0n, 5n * 10n ** 14n, 2n * 10n ** 16n])
    await writeContractAndWait({
      devnet,
      address: model,
      abi: DodoFeeRateModel.abi,
      functionName: 'setTraderRate',
      args: [SECOND_TRADER, secondRate],
    })
    rates.set(SECOND_TRADER, secondRate)
    // i: quote base units per base unit, 18 decimals (a whole-token price of 1e-4 to 1e4).
    const wholePrice = prng.logBigint(10n ** 14n, 10n ** 22n)
    const i = (wholePrice * 10n ** BigInt(quoteDecimals)) / 10n ** BigInt(baseDecimals) || 1n
    const k = prng.chance(0.15) ? 0n : prng.chance(0.15) ? ONE : prng.bigint(10n ** 14n, ONE - 1n)
    const lpFee = prng.pick([0n, 10n ** 14n, 3n * 10n ** 15n, 10n ** 16n])
    const address = await deployContractAndWait({
      devnet,
      artifact: DodoPmmPool,
      args: [BigInt(kind), base, quote, MAINTAINER, model, lpFee, i, k, devnet.account],
    })
    const baseWhole = prng.logBigint(10n, 10n ** 9n)
    const baseAmount = baseWhole * 10n ** BigInt(baseDecimals)
    const quoteAmount = ((baseAmount * i) / ONE) * prng.bigint(1n, 3n) + 1n
    await writeContractAndWait({ devnet, address: base, abi: testTokenAbi, functionName: 'transfer', args: [address, baseAmount] })
    await writeContractAndWait({ devnet, address: quote, abi: testTokenAbi, functionName: 'transfer', args: [address, quoteAmount] })
    await writeContractAndWait({ devnet, address, abi: DodoPmmPool.abi, functionName: 'sync' })
    pools.push({ address, kind, base, quote, model, rates })
  }

  let paid = 0
  let refused = 0
  let backToOne = 0
  const rStates = new Set<string>()
  const mismatches: string[] = []
  const gas: bigint[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const trades = []
    for (const pool of pools) {
      const stored = await readStored(pool.address)
      const [, , , , B0, Q0, R] = (await read(pool.address, 'getPMMStateForCall', [])) as readonly bigint[]
      let side: 'base' | 'quote' = prng.chance(0.5) ? 'base' : 'quote'
      let pay = prng.logBigint(1n, (side === 'base' ? stored.B : stored.Q) * 2n + 1n)
      // Now and then exactly the amount that brings R back to one (the equality branches).
      if (pool.kind !== 0 && prng.chance(0.2)) {
        if (R === 1n && stored.B < B0) [side, pay] = ['base', B0 - stored.B]
        else if (R === 2n && stored.Q < Q0) [side, pay] = ['quote', Q0 - stored.Q]
      }
      const trader = prng.pick(traders)
      trades.push({ pool, stored, side, pay, trader, R })
    }
    const answers = runPythonReference<Answer>({
      script: PYTHON,
      cases: trades.map(({ pool, stored, side, pay, trader }) => ({
        kind: pool.kind,
        i: String(stored.i),
        K: String(stored.K),
        B: String(stored.B),
        Q: String(stored.Q),
        B0: String(stored.B0),
        Q0: String(stored.Q0),
        R: Number(stored.R),
        lpFee: String(stored.lpFee),
        mtFee: String(pool.rates.get(trader)),
        side,
        pay: String(pay),
      })),
    })
    for (const [t, { pool, stored, side, pay, trader, R }] of trades.entries()) {
      const answer = answers[t]
      const label = `round ${round} pool ${pools.indexOf(pool)} (kind ${pool.kind}, R ${R}): sell ${pay} ${side}`
      rStates.add(`${pool.kind}:${R}`)
      const query = await read(pool.address, side === 'base' ? 'querySellBase' : 'querySellQuote', [trader, pay]).then(
        (r) => r as readonly bigint[],
        () => undefined,
      )
      if ('revert' in answer) {
        if (query !== undefined) mismatches.push(`${label}: chain quotes ${query[0]}, reference reverts (${answer.revert})`)
        else refused++
        continue
      }
      const expected = [BigInt(answer.receive), BigInt(answer.mtFee), BigInt(answer.newR), BigInt(answer.newTarget)]
      if (query === undefined || query.some((v, k) => v !== expected[k])) {
        mismatches.push(`${label}: query ${query?.join('/') ?? 'reverted'}, reference ${expected.join('/')}`)
        continue
      }
      const [tokenIn, tokenOut] = side === 'base' ? [pool.base, pool.quote] : [pool.quote, pool.base]
      const before = [await balanceOf(tokenOut, RECIPIENT), await balanceOf(tokenOut, MAINTAINER)]
      await writeContractAndWait({
        devnet,
        address: tokenIn,
        abi: testTokenAbi,
        functionName: 'transfer',
        args: [pool.address, pay],
        from: trader,
      })
      const receipt = await writeContractAndWait({
        devnet,
        address: pool.address,
        abi: DodoPmmPool.abi,
        functionName: side === 'base' ? 'sellBase' : 'sellQuote',
        args: [RECIPIENT],
        from: trader,
        throwOnRevert: false,
      })
      if (receipt.status !== 'success') {
        mismatches.push(`${label}: the swap reverted, the reference pays ${answer.receive}`)
        continue
      }
      gas.push(receipt.gasUsed)
      const received = (await balanceOf(tokenOut, RECIPIENT)) - before[0]
      const fee = (await balanceOf(tokenOut, MAINTAINER)) - before[1]
      const after = await readStored(pool.address)
      const rChanged = pool.kind !== 0 && stored.R !== expected[2]
      const wantR = rChanged ? expected[2] : stored.R
      const wantTarget = rChanged ? expected[3] : side === 'base' ? stored.B0 : stored.Q0
      const gotTarget = side === 'base' ? after.B0 : after.Q0
      if (received !== expected[0] || fee !== expected[1] || after.R !== wantR || gotTarget !== wantTarget)
        mismatches.push(
          `${label}: paid ${received} + fee ${fee}, R ${after.R}, target ${gotTarget}; reference ${expected[0]} + ${expected[1]}, R ${wantR}, target ${wantTarget}`,
        )
      else {
        paid++
        if (rChanged && wantR === 0n) backToOne++
      }
    }
  }
  gas.sort((a, b) => (a < b ? -1 : 1))
  console.log(
    `DODO_V2 vs dodo_pmm.py: ${paid} trades paid equal, ${refused} refused by both, ${backToOne} back to R one, ${mismatches.length} mismatches; (kind:R) seen ${[...rStates].sort().join(' ')}; sell gas min/median/max ${gas[0]}/${gas[gas.length >> 1]}/${gas[gas.length - 1]}`,
  )
  assert.deepEqual(mismatches.slice(0, 10), [])
  assert.ok(paid >= (POOLS * ROUNDS) / 2, `only ${paid} trades paid`)
  assert.ok(backToOne > 0, 'no trade brought R back to one')
  for (const state of ['1:0', '1:1', '1:2', '2:0', '2:1', '2:2', '0:1']) assert.ok(rStates.has(state), `no trade from (kind:R) ${state}`)

  function read(address: Address, functionName: string, args: readonly unknown[]) {
    return devnet.publicClient.readContract({ address, abi: DodoPmmPool.abi, functionName, args })
  }
  async function readStored(address: Address) {
    const names = ['_I_', '_K_', '_BASE_RESERVE_', '_QUOTE_RESERVE_', '_BASE_TARGET_', '_QUOTE_TARGET_', '_RState_', '_LP_FEE_RATE_']
    const [i, K, B, Q, B0, Q0, R, lpFee] = (await Promise.all(names.map((n) => read(address, n, [])))).map((v) =>
      BigInt(v as bigint | number),
    )
    return { i, K, B, Q, B0, Q0, R, lpFee }
  }
  function balanceOf(token: Address, owner: Address) {
    return tokenBalanceOf(devnet, token, owner)
  }
})
