import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, type Address, encodeAbiParameters, encodeFunctionData, getAddress, type Hex, maxUint256 } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { SimulateResult, Solver } from '../../bindings/types.ts'
import { maverickV2 } from '../../src/adapters/maverickV2.ts'
import type { PoolRef } from '../../src/adapters/PoolAdapter.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { deployMarketTestTokens } from '../../src/devnet/deployMarketTestTokens.ts'
import { deployMaverickV2Market, type MaverickV2MarketPool } from '../../src/devnet/deployMaverickV2Market.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { createPrng } from '../differential/createPrng.ts'
import { testTokenAbi, tokenBalanceOf } from '../differential/harnessContracts.ts'
import type { RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, rawSwapParams, routeLeg, routePlan } from './planBuilders.ts'
import { routerRevert } from './routerCall.ts'

// The router's `maverick_v2` leg (contracts/router/MaverickV2Legs.sol) on one anvil chain against
// our Maverick V2 stand-in (contracts/maverick/), the three pools `deployMaverickV2Market` deploys
// (WETH/USDC, USDC/USDbC with directional fees and a protocol share, a one-sided cbETH/WETH). Both
// directions of each pool, at sizes within one tick and across several, through the plan encoder's
// leg with the book's edge as `tickLimit`: the recipient gets exactly what the pool's own swap pays
// a caller that pays by the callback (eth_call from the same state), with the leg's minOut at that
// amount; one wei more reverts `LegMinOut`. Then the refusals: a tick limit that stops the walk
// (`PartialFill`, nothing left in the router), the callback forged by a contract, an account and a
// real pool outside a swap (`UnexpectedCallback`), malformed leg data (`InvalidLegData(15)`).
// Then the reader (src/adapters/maverickV2.ts): the pools found from the factory's `PoolCreated`
// logs, followed by their own logs (swaps and liquidity changes carry the adapter's state topics),
// each read at a block and fed to the Rust solver, whose `simulate` equals what the router pays
// through the adapter's leg (its tick limit from the read), random directions and sizes, with
// liquidity taken off and put back between trades; a trade past the read ticks is refused by the
// solver and by the leg alike. CROSSCHECK_CASES sets the reader's trade count (default 36, about
// 3 s; CROSSCHECK_CASES=600 for the large run). Starts one chain, no server; about 10 s alone.

const RECIPIENT: Address = '0x000000000000000000000000000000000000c0de'
/** How far from the active tick the book is read for its edge (the market's pools span ±10 ticks). */
const READ_SPAN = 16

const { MaverickV2Pool } = loadStandInArtifacts({ protocol: 'maverick' })
const devnet = useDevnet()
let router: Address
let payer: Address
let pools: MaverickV2MarketPool[]
let tokens: Record<string, { address: Address; decimals: number }>
let payerAbi: Abi
let factory: Address
let solver: Solver | undefined

beforeAll(async () => {
  tokens = await deployMarketTestTokens({ devnet })
  ;({ pools, factory } = await deployMaverickV2Market({ devnet, tokens }))
  router = await deployRouter({ devnet, weth: tokens.WETH.address })
  payer = await deployContractAndWait({ devnet, artifact: devnet.artifacts.MaverickV2CallbackPayer })
  payerAbi = [...(devnet.artifacts.MaverickV2CallbackPayer.abi as Abi), ...(MaverickV2Pool.abi as Abi).filter((i) => i.type === 'error')]
  for (const { address } of Object.values(tokens)) {
    await writeContractAndWait({ devnet, address, abi: testTokenAbi, functionName: 'mint', args: [devnet.account, 10n ** 40n] })
    for (const spender of [router, payer])
      await writeContractAndWait({ devnet, address, abi: testTokenAbi, functionName: 'approve', args: [spender, maxUint256] })
  }
}, 120_000)
afterAll(async () => {
  await solver?.close()
})

const revert = (data: Hex) => routerRevert({ market: { devnet, router } as unknown as RouterMarket, data })

/** The furthest tick holding reserves in the direction (A in: up), as the service's reader gives it. */
async function bookEdge({ pool }: MaverickV2MarketPool, tokenAIn: boolean): Promise<number> {
  const state = (await devnet.publicClient.readContract({ address: pool, abi: MaverickV2Pool.abi, functionName: 'getState' })) as {
    activeTick: number
  }
  const ticks = Array.from({ length: READ_SPAN + 1 }, (_, k) => state.activeTick + (tokenAIn ? k : -k))
  const read = await Promise.all(
    ticks.map(
      (tick) =>
        devnet.publicClient.readContract({ address: pool, abi: MaverickV2Pool.abi, functionName: 'getTick', args: [tick] }) as Promise<{
          reserveA: bigint
          reserveB: bigint
        }>,
    ),
  )
  return ticks.filter((_, k) => read[k].reserveA !== 0n || read[k].reserveB !== 0n).at(-1) ?? state.activeTick
}

/** What the pool's own swap pays for `amount` (eth_call through the callback payer, same state). */
async function poolPays(pool: MaverickV2MarketPool, tokenAIn: boolean, amount: bigint, tickLimit: number) {
  const { result } = await devnet.publicClient.simulateContract({
    address: payer,
    abi: payerAbi,
    functionName: 'swap',
    args: [pool.pool, RECIPIENT, amount, tokenAIn, tickLimit, 0n],
    account: devnet.account,
  })
  const [amountIn, amountOut] = result as [bigint, bigint]
  return { amountIn, amountOut }
}

function planCall(pool: MaverickV2MarketPool, tokenAIn: boolean, amountIn: bigint, tickLimit: number, minOut: bigint): Hex {
  const [tokenIn, tokenOut] = tokenAIn ? [pool.tokenA, pool.tokenB] : [pool.tokenB, pool.tokenA]
  const leg = routeLeg(tokenIn, tokenOut, { kind: 'maverick_v2', pool: pool.pool, tokenAIn, tickLimit }, { minOut, dex: 'MAVERICK_V2' })
  return encodeSwapExactIn({ plan: routePlan([{ amountIn, legs: [leg] }]), recipient: RECIPIENT, deadline: FAR_DEADLINE }).data
}

async function send(data: Hex, tokenOut: Address): Promise<bigint> {
  const before = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
  const receipt = await sendAndWait({ devnet, to: router, data, gas: 5_000_000n, throwOnRevert: false })
  if (receipt.status !== 'success') throw new Error(`router call reverted: ${await revert(data)}`)
  return (await tokenBalanceOf(devnet, tokenOut, RECIPIENT)) - before
}

async function assertRouterEmpty() {
  for (const { address } of Object.values(tokens))
    assert.equal(await tokenBalanceOf(devnet, address, router), 0n, `router holds ${address}`)
}

test('both directions of every pool, within a tick and across ticks: the router pays exactly what the pool’s own swap pays, minOut at that amount (one wei more reverts)', async () => {
  let trades = 0
  let crossing = 0
  for (const pool of pools) {
    for (const tokenAIn of [true, false]) {
      const tickLimit = await bookEdge(pool, tokenAIn)
      const decimals = Object.values(tokens).find((t) => t.address === (tokenAIn ? pool.tokenA : pool.tokenB))?.decimals ?? 18
      const unit = 10n ** BigInt(decimals)
      // A small trade, one that crosses ticks, and a large one (the cbETH/WETH pool holds nothing
      // below its active tick's share, so its large B-in trade stops at the limit and is refused).
      for (const amountIn of [unit / 100n + 7n, 40n * unit + 123n, 400n * unit + 11n]) {
        const quoted = await poolPays(pool, tokenAIn, amountIn, tickLimit)
        const tokenOut = tokenAIn ? pool.tokenB : pool.tokenA
        if (quoted.amountIn !== amountIn) {
          assert.match(await revert(planCall(pool, tokenAIn, amountIn, tickLimit, 0n)), /^PartialFill/, pool.name)
          continue
        }
        assert.match(await revert(planCall(pool, tokenAIn, amountIn, tickLimit, quoted.amountOut + 1n)), /^LegMinOut/, pool.name)
        assert.equal(await send(planCall(pool, tokenAIn, amountIn, tickLimit, quoted.amountOut), tokenOut), quoted.amountOut, pool.name)
        const state = (await devnet.publicClient.readContract({
          address: pool.pool,
          abi: MaverickV2Pool.abi,
          functionName: 'getState',
        })) as {
          activeTick: number
        }
        if (state.activeTick !== pool.activeTick) crossing++
        pool.activeTick = state.activeTick
        trades++
      }
    }
  }
  assert.ok(trades >= 12 && crossing >= 2, `${trades} trades, ${crossing} moved the active tick`)
  await assertRouterEmpty()
})

test('a tick limit that stops the walk refuses the leg (the pool asks for less than the input): nothing stays in the router', async () => {
  const pool = pools[0]
  const amountIn = 400n * 10n ** 18n
  const tokenAIn = pool.tokenA === tokens.WETH.address
  const state = (await devnet.publicClient.readContract({ address: pool.pool, abi: MaverickV2Pool.abi, functionName: 'getState' })) as {
    activeTick: number
  }
  const stopped = await poolPays(pool, tokenAIn, amountIn, state.activeTick)
  assert.ok(stopped.amountIn < amountIn)
  assert.match(await revert(planCall(pool, tokenAIn, amountIn, state.activeTick, 0n)), /^PartialFill/)
  // Behind the active tick the pool itself refuses.
  assert.match(await revert(planCall(pool, tokenAIn, amountIn, state.activeTick + (tokenAIn ? -1 : 1), 0n)), /BeyondSwapLimit|0x/)
  await assertRouterEmpty()
})

test('the callback is refused from anyone but the pool being swapped: a contract, an account and a pool outside a swap', async () => {
  const forged = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'maverickV2SwapCallback',
    args: [tokens.WETH.address, 10n ** 18n, 0n, '0x01'],
  })
  const fake = await deployContractAndWait({ devnet, artifact: devnet.artifacts.FakeCallbackPool })
  await writeContractAndWait({
    devnet,
    address: tokens.WETH.address,
    abi: testTokenAbi,
    functionName: 'transfer',
    args: [router, 10n ** 18n],
  })
  const poke = encodeFunctionData({ abi: devnet.artifacts.FakeCallbackPool.abi as Abi, functionName: 'poke', args: [router, forged] })
  const viaFake = await sendAndWait({ devnet, to: fake, data: poke, gas: 1_000_000n, throwOnRevert: false })
  assert.equal(viaFake.status, 'reverted')
  const market = { devnet, router } as unknown as RouterMarket
  assert.equal(await routerRevert({ market, data: forged, from: fake }), `UnexpectedCallback(${getAddress(fake)})`)
  const direct = await sendAndWait({ devnet, to: router, data: forged, gas: 1_000_000n, throwOnRevert: false })
  assert.equal(direct.status, 'reverted')
  assert.equal(await revert(forged), `UnexpectedCallback(${getAddress(devnet.account)})`)
  // A real Maverick pool calling back while the router swaps nothing through it is refused too.
  assert.equal(await routerRevert({ market, data: forged, from: pools[0].pool }), `UnexpectedCallback(${getAddress(pools[0].pool)})`)
  // The stray WETH was not paid out to anyone.
  assert.equal(await tokenBalanceOf(devnet, tokens.WETH.address, router), 10n ** 18n)
})

test('malformed leg data reverts InvalidLegData(15)', async () => {
  const pool = pools[0]
  const call = (data: Hex, legPool: Address = pool.pool) =>
    encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [
        rawSwapParams({
          tokenIn: pool.tokenA,
          tokenOut: pool.tokenB,
          amountIn: 1000n,
          recipient: RECIPIENT,
          leg: { kind: 15, pool: legPool, data },
        }),
      ],
    })
  const words = (a: bigint, b: bigint) => encodeAbiParameters([{ type: 'uint256' }, { type: 'int256' }], [a, b])
  for (const data of ['0x' as Hex, words(2n, 0n), words(1n, 2n ** 31n), words(0n, -(2n ** 31n) - 1n), `${words(1n, 0n)}00` as Hex]) {
    assert.equal(await revert(call(data)), 'InvalidLegData(15)', data)
  }
  assert.equal(await revert(call(words(1n, 0n), '0x0000000000000000000000000000000000000000')), 'InvalidLegData(15)')
})

test('the reader: pools discovered from PoolCreated, followed by their logs, read at a block, priced by the Rust solver; the router pays exactly the solver’s amount', async () => {
  const cases = Number(process.env.CROSSCHECK_CASES ?? 36)
  const prng = createPrng({ seed: 22 })
  const random = () => prng.next()
  const routerHeld = await Promise.all(Object.values(tokens).map(({ address }) => tokenBalanceOf(devnet, address, router)))
  const logs = await devnet.publicClient.getLogs({ address: factory, fromBlock: 0n })
  assert.ok(logs.every((log) => maverickV2.discoveryTopics.includes(log.topics[0] as Hex)))
  const refs = logs.map((log) => maverickV2.poolFromDiscoveryLog(log)).map((found) => ('ref' in found ? found.ref : assert.fail('skipped')))
  assert.deepEqual(
    refs.map((ref) => ref.id),
    pools.map((p) => p.pool.toLowerCase()),
  )
  refs.push(maverickV2.refOfConfiguredPool({ dex: 'MAVERICK_V2', address: pools[1].pool }, undefined))
  solver = await loadSolver({ nativeToken: tokens.WETH.address.toLowerCase() as Address })
  const decimalsOf = (token: Address) => Object.values(tokens).find((t) => t.address.toLowerCase() === token.toLowerCase())?.decimals ?? 18
  let [paid, refused, followed] = [0, 0, 0]
  for (let k = 0; k < cases; k++) {
    const ref = refs[Math.floor(random() * refs.length)] as PoolRef
    const pool = pools.find((p) => p.pool.toLowerCase() === ref.id) as MaverickV2MarketPool
    if (k % 6 === 5) {
      // A liquidity change: take a third of a tick's reserves off, or put some on a new tick; the
      // pool's log carries one of the adapter's state topics and names the pool.
      const state = (await devnet.publicClient.readContract({ address: pool.pool, abi: MaverickV2Pool.abi, functionName: 'getState' })) as {
        activeTick: number
      }
      const tick = state.activeTick + Math.floor(random() * 7) - 3
      const { reserveA, reserveB } = (await devnet.publicClient.readContract({
        address: pool.pool,
        abi: MaverickV2Pool.abi,
        functionName: 'getTick',
        args: [tick],
      })) as { reserveA: bigint; reserveB: bigint }
      const receipt =
        reserveA + reserveB > 0n
          ? await writeContractAndWait({
              devnet,
              address: pool.pool,
              abi: MaverickV2Pool.abi,
              functionName: 'removeTickLiquidity',
              args: [devnet.account, [tick], [reserveA / 3n], [reserveB / 3n]],
            })
          : await (async () => {
              for (const token of [pool.tokenA, pool.tokenB])
                await writeContractAndWait({
                  devnet,
                  address: token,
                  abi: testTokenAbi,
                  functionName: 'approve',
                  args: [pool.pool, maxUint256],
                })
              return writeContractAndWait({
                devnet,
                address: pool.pool,
                abi: MaverickV2Pool.abi,
                functionName: 'addTickLiquidity',
                args: [[tick], [tick < state.activeTick ? 10n ** 21n : 0n], [tick < state.activeTick ? 0n : 10n ** 21n]],
              })
            })()
      const poolLogs = receipt.logs.filter((log) => log.address.toLowerCase() === ref.id)
      assert.equal(poolLogs.length, 1)
      assert.ok(maverickV2.stateTopics.includes(poolLogs[0].topics[0] as Hex) && maverickV2.poolIdOfStateLog(poolLogs[0]) === ref.id)
      followed++
    }
    const blockNumber = await devnet.publicClient.getBlockNumber()
    const { timestamp } = await devnet.publicClient.getBlock({ blockNumber })
    const snapshot = await maverickV2.readPool({
      client: devnet.publicClient,
      ref,
      blockNumber,
      nextBlock: { number: blockNumber + 1n, timestamp: timestamp + 2n },
    })
    assert.deepEqual(snapshot.input.tokens, [pool.tokenA.toLowerCase(), pool.tokenB.toLowerCase()])
    await solver.upsertPools([snapshot.input])
    const tokenAIn = random() < 0.5
    const [tokenIn, tokenOut] = tokenAIn ? [pool.tokenA, pool.tokenB] : [pool.tokenB, pool.tokenA]
    // From a thousandth of a token to a million (past the read ticks of every pool).
    const whole = 10 ** (random() * 9 - 3)
    const amountIn =
      (BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(decimalsOf(tokenIn))) / 10n ** 6n + BigInt(Math.floor(random() * 1000))
    const leg = maverickV2.encodeLeg(snapshot.ref, { tokenIn, tokenOut })
    assert.ok(leg.kind === 'maverick_v2' && leg.tokenAIn === tokenAIn)
    const simulated: SimulateResult | Error = await solver
      .simulate({ poolId: ref.id, tokenIn: tokenIn.toLowerCase() as Address, amountIn: amountIn.toString() })
      .catch((error: Error) => error)
    const plan = (minOut: bigint) =>
      encodeSwapExactIn({
        plan: routePlan([{ amountIn, legs: [routeLeg(tokenIn, tokenOut, leg, { minOut, dex: 'MAVERICK_V2' })] }]),
        recipient: RECIPIENT,
        deadline: FAR_DEADLINE,
      }).data
    if (simulated instanceof Error) {
      // Past the read ticks: the solver refuses, and the leg's tick limit stops the walk there.
      assert.match(simulated.message, /liquidity/i, `${pool.name}: ${simulated.message}`)
      assert.match(await revert(plan(0n)), /^PartialFill/, pool.name)
      refused++
      continue
    }
    assert.equal(await send(plan(BigInt(simulated.amountOut)), tokenOut), BigInt(simulated.amountOut), `${pool.name} case ${k}`)
    paid++
  }
  console.log(`maverick reader: ${paid} paid exactly as simulated, ${refused} refused by both, ${followed} liquidity changes followed`)
  assert.ok(
    paid >= cases / 3 && refused >= 1 && followed >= Math.floor(cases / 6),
    `${paid} paid, ${refused} refused, ${followed} followed`,
  )
  // Nothing of these trades stayed in the router (the callback test leaves 1 WETH there on purpose).
  const held = await Promise.all(Object.values(tokens).map(({ address }) => tokenBalanceOf(devnet, address, router)))
  assert.deepEqual(held, routerHeld)
})
