import assert from 'node:assert/strict'
import { beforeAll, test } from 'vitest'
import { loadSolver } from '../../bindings/index.ts'
import { curve } from '../../src/adapters/curve.ts'
import { type Address, encodeAbiParameters, encodeFunctionData, getAddress, type Hex, maxUint256, parseAbi } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { type CurveMarketPool, deployCurveStableSwapMarket } from '../../src/devnet/deployCurveStableSwapMarket.ts'
import { createCurveMetaPool } from '../../src/devnet/createCurveMetaPool.ts'
import { createCurveStableSwapPool } from '../../src/devnet/createCurveStableSwapPool.ts'
import { createUniswapV2Pair } from '../../src/devnet/createUniswapV2Pair.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { deployUniswapV2 } from '../../src/devnet/deployUniswapV2.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import type { RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, rawSwapParams, routeLeg, routePlan } from './planBuilders.ts'
import { quoteV2 } from './quotePool.ts'
import { routerRevert } from './routerCall.ts'

// The router's `curve` leg (contracts/router/CurveLegs.sol) on one anvil chain: Curve's own
// StableSwap-NG pools (CurveStableSwapNG.vy v7.0.0, Vyper bytecode) of 2, 3 and 4 coins (plain,
// ERC-4626 and oracle-rated coins), the legacy plain-pool template and a meta pool on it (our
// stand-ins), as `deployCurveStableSwapMarket` seeds them. Every ordered pair of coins of every pool
// through the router with the plan encoder's leg (`int128` indexes): the recipient gets exactly what
// the pool's `get_dy` and its own `exchange` (eth_call from the same state) give, with the leg's
// minOut at that amount; one wei more reverts inside the pool. The `uint256` index type through a
// test double with CryptoSwap's signature; malformed leg data; a two-leg route Curve then Uniswap V2;
// a fee-on-transfer output coin, whose leg is held to what reached the router. The meta pool as the
// service reads it (`curve.readPool`): one solver venue of its underlying coins, its base pool
// refused beside it, every ordered pair through `exchange_underlying` paying exactly the solver's
// figure, before and after a trade on the base pool alone.
// No allowance of the router and no token in the router outlive a call.

const RECIPIENT: Address = '0x000000000000000000000000000000000000c0de'
const tokenAbi = parseAbi([
  'function mint(address, uint256)',
  'function approve(address, uint256) returns (bool)',
  'function transfer(address, uint256) returns (bool)',
  'function allowance(address, address) view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
])
const curveAbi = parseAbi([
  'function get_dy(int128 i, int128 j, uint256 dx) view returns (uint256)',
  'function exchange(int128 i, int128 j, uint256 dx, uint256 min_dy) returns (uint256)',
])
const pairAbi = parseAbi(['function mint(address) returns (uint256)'])
const ngAddLiquidityAbi = parseAbi(['function add_liquidity(uint256[] amounts, uint256 min_mint_amount) returns (uint256)'])
const taxedAbi = parseAbi(['function setPool(address, bool)'])
const metaCacheAbi = parseAbi([
  'function base_virtual_price() view returns (uint256)',
  'function base_cache_updated() view returns (uint256)',
])

const devnet = useDevnet()
let router: Address
let pools: CurveMarketPool[]
let curveFactory: Address
let dai: Address
let coins: Address[]
const decimalsOf = new Map<Address, number>()
let x: Address
let daiX: Address
let weth: Address
beforeAll(async () => {
  weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  router = await deployRouter({ devnet, weth })
  const tokens: Record<string, { address: Address; decimals: number }> = {}
  for (const [symbol, decimals] of [
    ['USDC', 6],
    ['USDbC', 6],
    ['DAI', 18],
    ['cbETH', 18],
    ['wstETH', 18],
    ['X', 18],
  ] as const)
    tokens[symbol] = { address: await deployTestToken({ devnet, name: symbol, symbol, decimals }), decimals }
  const market = await deployCurveStableSwapMarket({ devnet, tokens })
  pools = market.pools
  curveFactory = market.factory
  dai = tokens.DAI.address
  coins = [...new Set(pools.flatMap((p) => p.coins))]
  // Every coin (sDAI, the legacy pool's LP token included) minted or held, approved to the router
  // and to each pool (for the pools' own `exchange` by eth_call).
  for (const coin of coins) {
    decimalsOf.set(coin, Number(await devnet.publicClient.readContract({ address: coin, abi: tokenAbi, functionName: 'decimals' })))
    const isLp = pools.some((p) => p.pool === coin)
    if (!isLp) await write(coin, tokenAbi, 'mint', [devnet.account, 10n ** 40n])
    for (const spender of [router, ...poolsOf(coin)]) await write(coin, tokenAbi, 'approve', [spender, maxUint256])
  }
  // Uniswap V2 DAI/X, 10M : 10M, for the two-leg route.
  x = tokens.X.address
  const { factory } = await deployUniswapV2({ devnet })
  ;({ pair: daiX } = await createUniswapV2Pair({ devnet, factory, tokenA: tokens.DAI.address, tokenB: x }))
  await write(x, tokenAbi, 'mint', [devnet.account, 10n ** 40n])
  await write(tokens.DAI.address, tokenAbi, 'transfer', [daiX, 10n ** 25n])
  await write(x, tokenAbi, 'transfer', [daiX, 10n ** 25n])
  await write(daiX, pairAbi, 'mint', [devnet.account])
}, 120_000)

function write(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[]) {
  return writeContractAndWait({ devnet, address, abi: abi as never, functionName, args })
}

/** The pools that hold `coin`. */
const poolsOf = (coin: Address) => pools.filter((p) => p.coins.includes(coin)).map((p) => p.pool)

const balance = (token: Address, owner: Address) =>
  devnet.publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [owner] })

/** The router's calldata for a plan of one route through `legs`, built by the service's encoder. */
function planCall(amountIn: bigint, legs: ReturnType<typeof routeLeg>[]): Hex {
  return encodeSwapExactIn({ plan: routePlan([{ amountIn, legs }]), recipient: RECIPIENT, deadline: FAR_DEADLINE }).data
}

/** Sends router calldata, requires success; what RECIPIENT gained of `tokenOut`. */
async function send(data: Hex, tokenOut: Address): Promise<bigint> {
  const before = await balance(tokenOut, RECIPIENT)
  const receipt = await sendAndWait({ devnet, to: router, data, gas: 5_000_000n, throwOnRevert: false })
  if (receipt.status !== 'success') throw new Error(`router call reverted: ${await revert(data)}`)
  return (await balance(tokenOut, RECIPIENT)) - before
}

const revert = (data: Hex) => routerRevert({ market: { devnet, router } as unknown as RouterMarket, data })

/** The router holds nothing of any coin and has no allowance left to any pool. */
async function assertRouterClean() {
  for (const coin of [...coins, x]) {
    assert.equal(await balance(coin, router), 0n, `router holds ${coin}`)
    for (const pool of poolsOf(coin))
      assert.equal(
        await devnet.publicClient.readContract({ address: coin, abi: tokenAbi, functionName: 'allowance', args: [router, pool] }),
        0n,
      )
  }
}

/** A size in coin `i`'s units: `whole` whole coins plus an odd remainder. */
const sized = (coin: Address, whole: bigint) => whole * 10n ** BigInt(decimalsOf.get(coin) as number) + 123_457n

test('every direction of every pool: the router pays exactly get_dy and the pool’s own exchange, at minOut = that amount (one wei more reverts in the pool)', async () => {
  let trades = 0
  const seenCoins = new Set<number>()
  for (const { name, pool, coins: poolCoins } of pools) {
    seenCoins.add(poolCoins.length)
    const whole = name.startsWith('cbETH') ? 7n : 40_000n
    for (let i = 0; i < poolCoins.length; i++) {
      for (let j = 0; j < poolCoins.length; j++) {
        if (i === j) continue
        const amountIn = sized(poolCoins[i], whole + BigInt(3 * i + j))
        const args = [BigInt(i), BigInt(j), amountIn] as const
        const [getDy, { result: exchanged }] = await Promise.all([
          devnet.publicClient.readContract({ address: pool, abi: curveAbi, functionName: 'get_dy', args }),
          devnet.publicClient.simulateContract({
            address: pool,
            abi: curveAbi,
            functionName: 'exchange',
            args: [...args, 0n],
            account: devnet.account,
          }),
        ])
        assert.equal(exchanged, getDy, `${name} ${i}→${j}: exchange and get_dy`)
        const leg = routeLeg(poolCoins[i], poolCoins[j], { kind: 'curve', pool, i, j }, { minOut: getDy, dex: 'CURVE' })
        // One wei over what the pool pays (the first direction of each pool): the pool's own min_dy
        // check refuses, the leg's minOut is passed to it.
        if (i === 0 && j === 1) {
          const tooMuch = routeLeg(poolCoins[i], poolCoins[j], { kind: 'curve', pool, i, j }, { minOut: getDy + 1n, dex: 'CURVE' })
          assert.equal(await revert(planCall(amountIn, [tooMuch])), 'Error(Exchange resulted in fewer coins than expected)', name)
        }
        assert.equal(await send(planCall(amountIn, [leg]), poolCoins[j]), getDy, `${name} ${i}→${j}: paid`)
        trades++
      }
    }
  }
  assert.deepEqual([...seenCoins].sort(), [2, 3, 4])
  assert.equal(trades, 2 + 6 + 2 + 12 + 2 + 2 + 2)
  await assertRouterClean()
})

test('the uint256 index type calls CryptoSwap’s exchange(uint256, uint256, uint256, uint256); int128 on such a pool reverts', async () => {
  const { pool, coins: poolCoins } = pools.find((p) => p.name === 'USDC/USDbC/DAI') as CurveMarketPool
  const cryptoStyle = await deployContractAndWait({ devnet, artifact: devnet.artifacts.CurveUint256IndexPool, args: [pool] })
  const [i, j] = [2, 0]
  const amountIn = sized(poolCoins[i], 12_345n)
  const getDy = await devnet.publicClient.readContract({ address: pool, abi: curveAbi, functionName: 'get_dy', args: [2n, 0n, amountIn] })
  const legData = (indexType: number) => encodeAbiParameters([{ type: 'uint8' }, { type: 'uint8' }, { type: 'uint8' }], [i, j, indexType])
  const call = (indexType: number, minOut = 0n) => {
    const params = rawSwapParams({
      tokenIn: poolCoins[i],
      tokenOut: poolCoins[j],
      amountIn,
      recipient: RECIPIENT,
      leg: { kind: 8, pool: cryptoStyle, data: legData(indexType) },
    })
    const routes = [{ amountIn, legs: [{ ...params.routes[0].legs[0], minOut }] }]
    return encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactIn', args: [{ ...params, routes }] })
  }
  assert.match(await revert(call(0)), /no data/)
  assert.equal(await revert(call(1, getDy + 1n)), 'Error(Exchange resulted in fewer coins than expected)')
  assert.equal(await send(call(1, getDy), poolCoins[j]), getDy)
  assert.equal(
    await devnet.publicClient.readContract({
      address: poolCoins[i],
      abi: tokenAbi,
      functionName: 'allowance',
      args: [router, cryptoStyle],
    }),
    0n,
  )
  await assertRouterClean()
})

test('malformed curve leg data reverts InvalidLegData(8); a pool whose coins are not the leg’s tokens moves nothing', async () => {
  const { pool, coins: poolCoins } = pools.find((p) => p.name === 'USDC/USDbC') as CurveMarketPool
  const amountIn = sized(poolCoins[0], 100n)
  const raw = (data: Hex, tokenIn = poolCoins[0], tokenOut = poolCoins[1], legPool: Address = pool) =>
    encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [rawSwapParams({ tokenIn, tokenOut, amountIn, recipient: RECIPIENT, leg: { kind: 8, pool: legPool, data } })],
    })
  const words = (...values: bigint[]) =>
    encodeAbiParameters(
      values.map(() => ({ type: 'uint256' })),
      values,
    )
  for (const data of [words(0n, 0n, 0n), words(0n, 8n, 0n), words(0n, 1n, 3n), words(0n, 1n), `${words(0n, 1n, 0n)}00` as Hex])
    assert.equal(await revert(raw(data)), 'InvalidLegData(8)', data)
  assert.equal(
    await revert(raw(words(0n, 1n, 0n), poolCoins[0], poolCoins[1], '0x0000000000000000000000000000000000000000')),
    'InvalidLegData(8)',
  )
  // The leg names USDbC → USDC but indexes USDC → USDbC: the pool cannot pull USDC (none approved), the call reverts.
  assert.doesNotMatch(await revert(raw(words(0n, 1n, 0n), poolCoins[1], poolCoins[0])), /^InvalidLegData/)
  await assertRouterClean()
})

test('two legs: Curve NG USDC → DAI, then Uniswap V2 DAI → X; each leg and the total exactly as the pools quote', async () => {
  const { pool, coins: poolCoins } = pools.find((p) => p.name === 'USDC/USDbC/DAI') as CurveMarketPool
  const [usdc, dai] = [poolCoins[0], poolCoins[2]]
  const amountIn = sized(usdc, 250_000n)
  const daiOut = await devnet.publicClient.readContract({ address: pool, abi: curveAbi, functionName: 'get_dy', args: [0n, 2n, amountIn] })
  const xOut = await quoteV2({
    market: { devnet } as unknown as RouterMarket,
    pair: daiX,
    tokenIn: dai,
    tokenOut: x,
    amountIn: daiOut,
    feeBps: 30n,
  })
  const legs = [
    routeLeg(usdc, dai, { kind: 'curve', pool, i: 0, j: 2 }, { minOut: daiOut, dex: 'CURVE' }),
    routeLeg(dai, x, { kind: 'v2_direct', pool: daiX, feeBps: 30 }, { minOut: xOut, dex: 'UNIV2' }),
  ]
  assert.equal(await send(planCall(amountIn, legs), x), xOut)
  await assertRouterClean()
})

test('a taxed output coin: the leg counts what reached the router, so the pool’s dy as minOut reverts LegMinOut and dy less the tax pays exactly that', async () => {
  // TaxedToken burns 1 % of each transfer to or from a pool it marks; wallet to wallet is free.
  const taxed = await deployContractAndWait({ devnet, artifact: devnet.artifacts.TaxedToken, args: [100] })
  const { pool } = await createCurveStableSwapPool({
    devnet,
    factory: curveFactory,
    coins: [
      { address: dai, decimals: 18, kind: 'plain' },
      { address: taxed, decimals: 18, kind: 'plain' },
    ],
    A: 200n,
    fee: 1_000_000n,
    offpegFeeMultiplier: 20_000_000_000n,
  })
  const deposit = 10n ** 24n
  await write(taxed, tokenAbi, 'mint', [devnet.account, deposit])
  for (const coin of [dai, taxed]) await write(coin, tokenAbi, 'approve', [pool, deposit])
  await write(pool, ngAddLiquidityAbi, 'add_liquidity', [[deposit, deposit], 0n])
  await write(taxed, taxedAbi, 'setPool', [pool, true])
  const amountIn = 5_000n * 10n ** 18n
  const dy = await devnet.publicClient.readContract({ address: pool, abi: curveAbi, functionName: 'get_dy', args: [0n, 1n, amountIn] })
  const arrived = dy - dy / 100n
  const leg = (minOut: bigint) => routeLeg(dai, taxed, { kind: 'curve', pool, i: 0, j: 1 }, { minOut, dex: 'CURVE' })
  assert.equal(await revert(planCall(amountIn, [leg(dy)])), `LegMinOut(0, 0, ${arrived}, ${dy})`)
  assert.equal(await send(planCall(amountIn, [leg(arrived)]), taxed), arrived)
  assert.equal(await balance(taxed, router), 0n)
  assert.equal(await devnet.publicClient.readContract({ address: dai, abi: tokenAbi, functionName: 'allowance', args: [router, pool] }), 0n)
})

test('a meta pool read by the service: one solver venue of its underlying coins, its base pool refused beside it; exchange_underlying pays exactly the solver’s figure for every pair, also after a trade on the base pool alone', async () => {
  const meta = pools.find((p) => p.template === 'meta') as CurveMarketPool
  const legacy = pools.find((p) => p.template === 'legacy') as CurveMarketPool
  const solver = await loadSolver({ nativeToken: weth.toLowerCase() as Address })
  const lower = (a: Address) => a.toLowerCase() as Address
  const read = async (pool: Address) => {
    const blockNumber = await devnet.publicClient.getBlockNumber()
    const { timestamp } = await devnet.publicClient.getBlock({ blockNumber })
    const ref = curve.refOfConfiguredPool({ dex: 'CURVE', address: pool }, undefined)
    const snapshot = await curve.readPool({
      client: devnet.publicClient,
      ref,
      blockNumber,
      nextBlock: { number: blockNumber + 1n, timestamp: timestamp + 2n },
    })
    return { snapshot, blockNumber }
  }
  const { snapshot: base, blockNumber } = await read(legacy.pool)
  let { snapshot } = await read(meta.pool)
  // Re-read every block: a trade on the base pool moves its price without a log of its own.
  assert.equal(snapshot.refreshEveryBlock, true)
  assert.equal(snapshot.ref.curveBasePool, lower(legacy.pool))
  const underlying = [meta.coins[0], ...legacy.coins].map(lower)
  assert.deepEqual([snapshot.ref.coins, snapshot.input.tokens], [underlying, underlying])
  // The base pool beside the meta pool that holds it: refused, whatever the order.
  const { rejected } = await solver.applyBlock({ blockNumber: Number(blockNumber), upserts: [base.input, snapshot.input] })
  assert.deepEqual(
    rejected.map((r) => r.id),
    [lower(legacy.pool)],
  )
  assert.match(rejected[0].reason, /held inside venue/)
  const gasOf: Record<string, bigint[]> = {}
  let k = 0
  // The seeded meta pool caches the base pool's virtual price for 600 s (the pre-factory template):
  // the first pass prices with the price stored at its deposit while the base pool's moves under it;
  // the second, more than 600 s later, refreshes it at its first trade and prices with that one.
  const cachedAt = await devnet.publicClient.readContract({ address: meta.pool, abi: metaCacheAbi, functionName: 'base_cache_updated' })
  for (const pass of ['at the seeded state', 'after a trade on the base pool, the cache expired']) {
    if (pass !== 'at the seeded state') {
      const latest = await devnet.publicClient.getBlock({ blockTag: 'latest' })
      await devnet.testClient.setNextBlockTimestamp({
        timestamp: latest.timestamp > cachedAt + 600n ? latest.timestamp + 2n : cachedAt + 600n,
      })
      await devnet.testClient.mine({ blocks: 1 })
      // $2M of DAI straight into the base pool (no router): the meta pool's price moves, and only
      // the base pool logs it.
      const dai2 = legacy.coins[1]
      const receipt = await writeContractAndWait({
        devnet,
        address: legacy.pool,
        abi: curveAbi,
        functionName: 'exchange',
        args: [1n, 0n, 2_000_000n * 10n ** 18n, 0n],
      })
      assert.ok(receipt.logs.every((log) => log.address.toLowerCase() !== lower(meta.pool)) && dai2 !== undefined)
    }
    for (let i = 0; i < underlying.length; i++) {
      for (let j = 0; j < underlying.length; j++) {
        if (i === j) continue
        ;({ snapshot } = await read(meta.pool))
        await solver.upsertPools([snapshot.input])
        const [tokenIn, tokenOut] = [underlying[i], underlying[j]]
        const amountIn = sized(tokenIn, 30_000n + BigInt(1_000 * k++))
        const simulated = await solver.simulate({ poolId: lower(meta.pool), tokenIn, tokenOut, amountIn: amountIn.toString() })
        const out = BigInt(simulated.amountOut)
        const leg = curve.encodeLeg(snapshot.ref, { tokenIn, tokenOut })
        assert.deepEqual(leg, { kind: 'curve', pool: getAddress(meta.pool), i, j, underlying: true })
        const call = (minOut: bigint) => planCall(amountIn, [routeLeg(tokenIn, tokenOut, leg, { minOut, dex: 'CURVE' })])
        if (k === 1) assert.equal(await revert(call(out + 1n)), 'Error(Exchange resulted in fewer coins than expected)')
        const before = await balance(tokenOut, RECIPIENT)
        const receipt = await sendAndWait({ devnet, to: router, data: call(out), gas: 5_000_000n, throwOnRevert: false })
        assert.equal(receipt.status, 'success', `${pass} ${i}→${j}: ${receipt.status === 'success' ? '' : await revert(call(out))}`)
        assert.equal((await balance(tokenOut, RECIPIENT)) - before, out, `${pass} ${i}→${j}: paid`)
        const path = i === 0 ? 'coin→base' : j === 0 ? 'base→coin' : 'base→base'
        ;(gasOf[path] ??= []).push(receipt.gasUsed)
        if (pass === 'at the seeded state') (gasOf[`${path} estimate`] ??= []).push(BigInt(simulated.gasUnits))
      }
    }
  }
  // The base pool's own exchange through the router, for the difference (docs/gas-model.md).
  const plainIn = sized(legacy.coins[0], 30_000n)
  const plainLeg = routeLeg(
    legacy.coins[0],
    legacy.coins[1],
    { kind: 'curve', pool: legacy.pool, i: 0, j: 1 },
    { minOut: 0n, dex: 'CURVE' },
  )
  const plain = await sendAndWait({ devnet, to: router, data: planCall(plainIn, [plainLeg]), gas: 5_000_000n })
  gasOf['legacy plain exchange'] = [plain.gasUsed]
  console.log(
    `meta pool exchange_underlying, transaction gas used by path: ${JSON.stringify(gasOf, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`,
  )
  // The registry's figure for each path less the legacy leg's (124,000) is within 10 % of what the
  // path costs beyond the base pool's own exchange, on average (docs/gas-model.md, *Curve meta pools*).
  for (const path of ['coin→base', 'base→coin', 'base→base']) {
    const measured = gasOf[path].reduce((a, b) => a + b, 0n) / BigInt(gasOf[path].length) - plain.gasUsed
    const modelled = gasOf[`${path} estimate`][0] - 124_000n
    const off = measured > modelled ? measured - modelled : modelled - measured
    assert.ok(off * 10n <= measured, `${path}: ${measured} more than the legacy leg, the registry says ${modelled}`)
  }
  const cache = await Promise.all(
    (['base_virtual_price', 'base_cache_updated'] as const).map((functionName) =>
      devnet.publicClient.readContract({ address: meta.pool, abi: metaCacheAbi, functionName }),
    ),
  )
  assert.ok(cache[1] > cachedAt + 600n, `the cache was refreshed in the second pass: ${cache}`)
  assert.deepEqual(
    snapshot.input.state.model === 'stableswap' && [snapshot.input.state.baseVirtualPrice, snapshot.input.state.baseCacheUpdated],
    cache.map(String),
  )
  await assertRouterClean()
})

test('the original template (3pool’s, our stand-in) and a pre-factory meta pool over it, test-only: read by the service as `original`, every pair of each through the router pays exactly the solver’s figure', async () => {
  const artifacts = loadStandInArtifacts({ protocol: 'curve' })
  const lower = (a: Address) => a.toLowerCase() as Address
  // 3pool's shape: DAI (18), USDC (6), USDT (6), A 2000 stored as it is, 1 bps, half to the admin;
  // GUSD (2 decimals) over it, as the deployed GUSD meta pool.
  const made: Address[] = []
  for (const [symbol, decimals] of [
    ['oDAI', 18],
    ['oUSDC', 6],
    ['oUSDT', 6],
    ['GUSD', 2],
  ] as const) {
    const address = await deployTestToken({ devnet, name: symbol, symbol, decimals })
    await write(address, tokenAbi, 'mint', [devnet.account, 10n ** 40n])
    decimalsOf.set(address, decimals)
    made.push(address)
  }
  const baseCoins = made.slice(0, 3)
  const original = await deployContractAndWait({
    devnet,
    artifact: artifacts.CurveOriginalPool,
    args: [devnet.account, baseCoins, [18, 6, 6], 2000n, 1_000_000n, 5_000_000_000n],
  })
  const originalAbi = artifacts.CurveOriginalPool.abi
  for (const coin of baseCoins) await write(coin, tokenAbi, 'approve', [original, maxUint256])
  const deposit = baseCoins.map((coin, k) => (5_000_000n + BigInt(k) * 700_000n) * 10n ** BigInt(decimalsOf.get(coin) as number))
  await writeContractAndWait({
    devnet,
    address: original,
    abi: (originalAbi as readonly { name?: string; inputs?: { type: string }[] }[]).filter(
      (item) => item.name !== 'add_liquidity' || item.inputs?.[0].type === 'uint256[3]',
    ) as never,
    functionName: 'add_liquidity',
    args: [deposit, 0n],
  })
  const { pool: meta } = await createCurveMetaPool({
    devnet,
    factory: curveFactory,
    coin: { address: made[3], decimals: 2 },
    basePool: original,
    A: 100n,
    fee: 4_000_000n,
    cachesBaseVirtualPrice: true,
  })
  const lp = (await balance(original, devnet.account)) / 3n
  await write(made[3], tokenAbi, 'approve', [meta, maxUint256])
  await write(original, tokenAbi, 'approve', [meta, lp])
  await writeContractAndWait({
    devnet,
    address: meta,
    abi: artifacts.CurveMetaPool.abi,
    functionName: 'add_liquidity',
    args: [[4_000_000n * 100n, lp], 0n],
  })
  for (const coin of made) await write(coin, tokenAbi, 'approve', [router, maxUint256])

  const read = async (pool: Address) => {
    const blockNumber = await devnet.publicClient.getBlockNumber()
    const { timestamp } = await devnet.publicClient.getBlock({ blockNumber })
    const ref = curve.refOfConfiguredPool({ dex: 'CURVE', address: pool }, undefined)
    return curve.readPool({
      client: devnet.publicClient,
      ref,
      blockNumber,
      nextBlock: { number: blockNumber + 1n, timestamp: timestamp + 2n },
    })
  }
  const gasOf: Record<string, bigint[]> = {}
  let k = 0
  for (const venue of [original, meta]) {
    // One solver per venue: the meta pool's venue holds the original pool, refused beside it.
    const solver = await loadSolver({ nativeToken: weth.toLowerCase() as Address })
    const tokens = venue === original ? baseCoins.map(lower) : [made[3], ...baseCoins].map(lower)
    for (let i = 0; i < tokens.length; i++) {
      for (let j = 0; j < tokens.length; j++) {
        if (i === j) continue
        const snapshot = await read(venue)
        const state = snapshot.input.state
        assert.ok(state.model === 'stableswap')
        const plain = venue === original ? state : state.base
        assert.equal(plain?.template, 'original', 'told apart by its missing A_precise()')
        assert.deepEqual([plain?.adminFee, plain?.initialA], ['5000000000', '2000'])
        await solver.upsertPools([snapshot.input])
        const [tokenIn, tokenOut] = [tokens[i], tokens[j]]
        const amountIn = sized(tokenIn, 20_000n + BigInt(1_000 * k++))
        const simulated = await solver.simulate({ poolId: lower(venue), tokenIn, tokenOut, amountIn: amountIn.toString() })
        const out = BigInt(simulated.amountOut)
        const leg = curve.encodeLeg(snapshot.ref, { tokenIn, tokenOut })
        assert.deepEqual(leg, { kind: 'curve', pool: getAddress(venue), i, j, ...(venue === meta ? { underlying: true } : {}) })
        const call = (minOut: bigint) => planCall(amountIn, [routeLeg(tokenIn, tokenOut, leg, { minOut, dex: 'CURVE' })])
        if (i === 0 && j === 1) assert.equal(await revert(call(out + 1n)), 'Error(Exchange resulted in fewer coins than expected)')
        const before = await balance(tokenOut, RECIPIENT)
        const receipt = await sendAndWait({ devnet, to: router, data: call(out), gas: 5_000_000n, throwOnRevert: false })
        assert.equal(receipt.status, 'success', `${venue} ${i}→${j}: ${receipt.status === 'success' ? '' : await revert(call(out))}`)
        assert.equal((await balance(tokenOut, RECIPIENT)) - before, out, `${venue === meta ? 'meta' : 'original'} ${i}→${j}: paid`)
        const path = venue === original ? 'original exchange' : i === 0 ? 'meta coin→base' : j === 0 ? 'meta base→coin' : 'meta base→base'
        ;(gasOf[path] ??= []).push(receipt.gasUsed)
        ;(gasOf[`${path} estimate`] ??= []).push(BigInt(simulated.gasUnits))
      }
    }
  }
  console.log(`original template legs, transaction gas used: ${JSON.stringify(gasOf, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`)
  for (const coin of made) assert.equal(await balance(coin, router), 0n, `router holds ${coin}`)
})
