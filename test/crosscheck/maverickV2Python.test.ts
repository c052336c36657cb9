import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'
import { type Address, parseEventLogs } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createPrng } from '../differential/createPrng.ts'
import { testTokenAbi, tokenBalanceOf } from '../differential/harnessContracts.ts'
import { runPythonReference } from './runPythonReference.ts'

// MAVERICK_V2: our pool stand-in (contracts/maverick/MaverickV2Pool.sol) against a second
// implementation of Maverick V2's published swap math in Python with exact integers
// (maverick_v2.py), written apart. One chain. Random pools (tick spacing 1 to 200, decimals 6, 8
// or 18 on either side, directional fees 0 to 1 % each, a protocol share of 0 to 25.5 % of the fee),
// a book of ticks around the active one (A below it, B above, both in it, gaps between), then rounds
// of one exact-input trade a pool, sequential (each trade starts from the state the last one left):
// either direction, 1 unit to about twice what the pool holds, a tick limit that now and then stops
// the walk early or lies behind the active tick. Each trade is a transfer to the pool then `swap`
// with empty data; the amounts in and out (from the pool's event and the recipient's balance), the
// new active tick and every tick's reserves must equal the reference's; where the reference
// reverts, the swap must revert. DIFF_MAVERICK_POOLS (default 8) and DIFF_MAVERICK_ROUNDS
// (default 12) set the size; DIFF_SEED the seed.
const SEED = Number(process.env.DIFF_SEED ?? 2208)
const POOLS = Number(process.env.DIFF_MAVERICK_POOLS ?? 8)
const ROUNDS = Number(process.env.DIFF_MAVERICK_ROUNDS ?? 12)
const PYTHON = fileURLToPath(new URL('./maverick_v2.py', import.meta.url))
const RECIPIENT: Address = '0x000000000000000000000000000000000000a7e1'
const SPAN = 6

const { MaverickV2Pool } = loadStandInArtifacts({ protocol: 'maverick' })
const devnet = useDevnet()

type Pool = {
  address: Address
  tokenA: Address
  tokenB: Address
  scaleA: bigint
  scaleB: bigint
  spacing: number
  fees: [bigint, bigint]
  ratio: number
  ticks: number[]
}
type Answer = { amountIn: string; amountOut: string; active: number; ticks: [number, string, string][] } | { revert: string }

test('MAVERICK_V2: exact-input swaps pay what an independent implementation of the tick math says', { timeout: 900_000 }, async () => {
  const prng = createPrng({ seed: SEED })
  const pools: Pool[] = []
  for (let p = 0; p < POOLS; p++) {
    const [decimalsA, decimalsB] = [prng.pick([6, 8, 18, 18]), prng.pick([6, 8, 18, 18])]
    const tokenA = await deployTestToken({ devnet, name: 'A', symbol: 'A', decimals: decimalsA })
    const tokenB = await deployTestToken({ devnet, name: 'B', symbol: 'B', decimals: decimalsB })
    const spacing = prng.pick([1, 10, 50, 200])
    const active = prng.int(-Math.floor(2000 / spacing), Math.floor(2000 / spacing))
    const fees: [bigint, bigint] = [
      prng.pick([0n, 10n ** 14n, 5n * 10n ** 14n, 3n * 10n ** 15n, 10n ** 16n]),
      prng.pick([0n, 10n ** 14n, 10n ** 15n, 10n ** 16n]),
    ]
    const ratio = prng.pick([0, 0, 1, 100, 255])
    const address = await deployContractAndWait({
      devnet,
      artifact: MaverickV2Pool,
      args: [tokenA, tokenB, decimalsA, decimalsB, BigInt(spacing), fees[0], fees[1], ratio, active, devnet.account],
    })
    for (const token of [tokenA, tokenB]) {
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, 2n ** 200n] })
      await writeContractAndWait({ devnet, address: token, abi: testTokenAbi, functionName: 'approve', args: [address, 2n ** 200n] })
    }
    const [ticks, ammA, ammB]: [number[], bigint[], bigint[]] = [[], [], []]
    for (let tick = active - SPAN; tick <= active + SPAN; tick++) {
      if (tick !== active && prng.chance(0.3)) continue
      const amount = () => prng.logBigint(10n ** 12n, 10n ** 25n)
      const both = prng.chance(0.8)
      const [a, b] =
        tick < active
          ? [amount(), 0n]
          : tick > active
            ? [0n, amount()]
            : both
              ? [amount(), amount()]
              : prng.chance(0.5)
                ? [amount(), 0n]
                : [0n, amount()]
      ticks.push(tick)
      ammA.push(a)
      ammB.push(b)
    }
    await writeContractAndWait({ devnet, address, abi: MaverickV2Pool.abi, functionName: 'addTickLiquidity', args: [ticks, ammA, ammB] })
    pools.push({
      address,
      tokenA,
      tokenB,
      scaleA: 10n ** BigInt(18 - decimalsA),
      scaleB: 10n ** BigInt(18 - decimalsB),
      spacing,
      fees,
      ratio,
      ticks,
    })
  }

  let paid = 0
  let capped = 0
  let refused = 0
  let multiTick = 0
  const mismatches: string[] = []
  const gas: bigint[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const trades = []
    for (const pool of pools) {
      const { state, book } = await readPool(pool)
      const tokenAIn = prng.chance(0.5)
      const outSide = book.reduce((sum, [, a, b]) => sum + (tokenAIn ? b : a), 0n)
      const amount = prng.logBigint(1n, (outSide * 2n) / (tokenAIn ? pool.scaleA : pool.scaleB) + 2n)
      const reach = prng.chance(0.1) ? -prng.int(1, 3) : prng.int(0, SPAN + 2)
      const limit = state.activeTick + (tokenAIn ? reach : -reach)
      trades.push({ pool, state, book, tokenAIn, amount, limit })
    }
    const answers = runPythonReference<Answer>({
      script: PYTHON,
      cases: trades.map(({ pool, state, book, tokenAIn, amount, limit }) => ({
        spacing: pool.spacing,
        scaleIn: String(tokenAIn ? pool.scaleA : pool.scaleB),
        scaleOut: String(tokenAIn ? pool.scaleB : pool.scaleA),
        feeIn: String(pool.fees[tokenAIn ? 0 : 1]),
        ratioD3: pool.ratio,
        active: state.activeTick,
        tokenAIn,
        amount: String(amount),
        limit,
        ticks: book.map(([tick, a, b]) => [tick, String(a), String(b)]),
      })),
    })
    for (const [t, { pool, state, tokenAIn, amount, limit }] of trades.entries()) {
      const answer = answers[t]
      const label = `round ${round} pool ${pools.indexOf(pool)} (spacing ${pool.spacing}, active ${state.activeTick}): ${amount} ${tokenAIn ? 'A' : 'B'} in, limit ${limit}`
      const [tokenIn, tokenOut] = tokenAIn ? [pool.tokenA, pool.tokenB] : [pool.tokenB, pool.tokenA]
      // A refused trade's input is not sent: the pool refuses it before it looks at its balance.
      if (!('revert' in answer))
        await writeContractAndWait({ devnet, address: tokenIn, abi: testTokenAbi, functionName: 'transfer', args: [pool.address, amount] })
      const before = await balanceOf(tokenOut, RECIPIENT)
      const receipt = await writeContractAndWait({
        devnet,
        address: pool.address,
        abi: MaverickV2Pool.abi,
        functionName: 'swap',
        args: [RECIPIENT, { amount, tokenAIn, exactOutput: false, tickLimit: limit }, '0x'],
        throwOnRevert: false,
      })
      if ('revert' in answer) {
        if (receipt.status === 'success') mismatches.push(`${label}: the pool swapped, the reference reverts (${answer.revert})`)
        else refused++
        continue
      }
      if (receipt.status !== 'success') {
        mismatches.push(`${label}: the swap reverted, the reference pays ${answer.amountOut}`)
        continue
      }
      gas.push(receipt.gasUsed)
      const [event] = parseEventLogs({ abi: MaverickV2Pool.abi, logs: receipt.logs, eventName: 'PoolSwap' }) as unknown as {
        args: { amountIn: bigint; amountOut: bigint }
      }[]
      const received = (await balanceOf(tokenOut, RECIPIENT)) - before
      const { state: after, book } = await readPool(pool)
      const got = JSON.stringify([
        String(event.args.amountIn),
        String(received),
        after.activeTick,
        book.map(([k, a, b]) => [k, String(a), String(b)]),
      ])
      const want = JSON.stringify([answer.amountIn, answer.amountOut, answer.active, answer.ticks])
      const reserves = tokenAIn
        ? [state.reserveA + event.args.amountIn, state.reserveB - event.args.amountOut]
        : [state.reserveA - event.args.amountOut, state.reserveB + event.args.amountIn]
      if (got !== want || event.args.amountOut !== received || after.reserveA !== reserves[0] || after.reserveB !== reserves[1])
        mismatches.push(`${label}: pool ${got}, reference ${want}`)
      else {
        paid++
        if (BigInt(answer.amountIn) < amount) capped++
        if (answer.active !== state.activeTick) multiTick++
      }
    }
  }
  gas.sort((a, b) => (a < b ? -1 : 1))
  console.log(
    `MAVERICK_V2 vs maverick_v2.py: ${paid} trades paid equal (${multiTick} moved the active tick, ${capped} stopped at the tick limit), ${refused} refused by both, ${mismatches.length} mismatches; swap gas min/median/max ${gas[0]}/${gas[gas.length >> 1]}/${gas[gas.length - 1]}`,
  )
  assert.deepEqual(mismatches.slice(0, 10), [])
  assert.ok(paid >= (POOLS * ROUNDS) / 2, `only ${paid} trades paid`)
  assert.ok(multiTick > 0 && capped > 0 && refused > 0, 'the walk across ticks, the tick limit and the refusal must each be seen')

  // The pool's state and every seeded tick in one eth_call (Multicall3).
  async function readPool(pool: Pool) {
    const [state, ...ticks] = (await devnet.publicClient.multicall({
      allowFailure: false,
      contracts: [
        { address: pool.address, abi: MaverickV2Pool.abi, functionName: 'getState', args: [] },
        ...pool.ticks.map((tick) => ({ address: pool.address, abi: MaverickV2Pool.abi, functionName: 'getTick', args: [tick] })),
      ],
    })) as [{ activeTick: number; reserveA: bigint; reserveB: bigint }, ...{ reserveA: bigint; reserveB: bigint }[]]
    const book: [number, bigint, bigint][] = pool.ticks.map((tick, k) => [tick, ticks[k].reserveA, ticks[k].reserveB])
    return { state, book }
  }
  function balanceOf(token: Address, owner: Address) {
    return tokenBalanceOf(devnet, token, owner)
  }
})
