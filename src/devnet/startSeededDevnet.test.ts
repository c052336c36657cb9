import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, test } from 'vitest'
import { type Abi, type Address, type Hex, maxUint256, parseAbi, parseEther, parseEventLogs } from 'viem'
import { decodePropAmmQuote, propAmmQuoteCall } from '../adapters/propAmm/propAmmQuoteCall.ts'
import { startPropAmmKeeper } from './propAmm/startPropAmmKeeper.ts'
import { seededDexIds } from './seed/baseMarketPools.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import { rawPrice } from './seed/rawPrice.ts'
import { readSeededPools } from './seed/readSeededPools.ts'
import { type SeededDevnet, startSeededDevnet } from './startSeededDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

const MIN_SQRT_RATIO = 4295128739n
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n
const erc20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function approve(address, uint256) returns (bool)',
  'function nonces(address) view returns (uint256)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
])
const pluginAbi = parseAbi(['function getCurrentFee() view returns (uint16)', 'function isInitialized() view returns (bool)'])
const swapFeeAbi = parseAbi(['event SwapFee(address indexed sender, uint24 overrideFee, uint24 pluginFee)'])
const multicallAbi = parseAbi(['function getEthBalance(address) view returns (uint256)'])
const aerodromeAbi = parseAbi(['function metadata() view returns (uint256, uint256, uint256, uint256, bool, address, address)'])
const infinityAbi = parseAbi([
  'function getSlot0(bytes32 id) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
])
const slipstreamAbi = parseAbi(['function fee() view returns (uint24)'])

// The first seed from scratch is saved where every other file loads it (`var/`, the default): run
// first (vitest.config.ts), it is the one seed a fresh checkout pays for. The second seed, for
// determinism, goes to a directory of its own.
const stateDir = mkdtempSync(join(tmpdir(), 'seeded-devnet-'))
const running: SeededDevnet[] = []
afterAll(async () => {
  for (const devnet of running) await devnet.stop()
  rmSync(stateDir, { recursive: true, force: true })
})

test(
  'the seeded market: 11 kinds and the prop AMMs, consistent prices, funded accounts, live Algebra fees, Infinity protocol fees, stable Aerodrome pools; a dump reload reproduces it',
  { timeout: 180_000 },
  async () => {
    const seeded = await startSeededDevnet({ forceSeed: true })
    running.push(seeded)
    const { market, publicClient } = seeded
    assert.equal(seeded.source, 'seed')
    assert.equal(market.chainId, 8453)
    // Our router is deployed by the seed (deploySeedRouter) and has code.
    assert.ok(market.router && (await publicClient.getCode({ address: market.router }))!.length > 2, 'no router deployed')

    // Every kind, at least 60 pools, no duplicate addresses.
    assert.ok(market.pools.length >= 60, `only ${market.pools.length} pools`)
    for (const dex of seededDexIds)
      assert.ok(
        market.pools.some((p) => p.dex === dex),
        `no ${dex} pool`,
      )
    assert.equal(new Set(market.pools.map((p) => p.address.toLowerCase())).size, market.pools.length)
    assert.deepEqual(Object.keys(market.tokens).sort(), baseMarketTokens.map((t) => t.symbol).sort())
    assert.deepEqual(new Set(Object.values(market.tokens).map((t) => t.decimals)), new Set([6, 8, 18]))

    // Live prices within 1 % of the fair price on every venue (offsets are at most 0.3 %), and liquidity.
    const bySymbol = Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t]))
    const states = await readSeededPools({ publicClient, market })
    for (const [i, pool] of market.pools.entries()) {
      const fair = rawPrice({ token0: bySymbol[pool.symbols[0]], token1: bySymbol[pool.symbols[1]] })
      const state = states[i]
      assert.ok(Math.abs(state.price / fair - 1) < 0.01, `${pool.dex} ${pool.symbols.join('/')}: price ${state.price} vs fair ${fair}`)
      if (state.reserve0 !== undefined) assert.ok(state.reserve0 > 0n && state.reserve1! > 0n, `${pool.address} has no reserves`)
      else assert.ok(state.liquidity! > 0n, `${pool.dex} ${pool.address} has no in-range liquidity`)
    }
    // WETH/USDC: ≈ 3000 USDC per WETH everywhere, but not the same price on every venue.
    const wethUsdc = market.pools.flatMap((pool, i) => {
      if (!pool.symbols.includes('WETH') || !pool.symbols.includes('USDC')) return []
      const human = states[i].price * 10 ** (market.tokens[pool.symbols[0]].decimals - market.tokens[pool.symbols[1]].decimals)
      return [pool.symbols[0] === 'WETH' ? human : 1 / human]
    })
    assert.ok(
      new Set(market.pools.filter((p) => p.symbols.includes('WETH') && p.symbols.includes('USDC')).map((p) => p.dex)).size ===
        seededDexIds.length,
    )
    for (const usdcPerWeth of wethUsdc) assert.ok(Math.abs(usdcPerWeth / 3000 - 1) < 0.03, `WETH/USDC mid ${usdcPerWeth}`)
    assert.ok(new Set(wethUsdc.map((p) => p.toFixed(6))).size > 1, 'every venue has the same WETH/USDC price')

    // The 10 accounts hold ETH, every token (WETH included) and their keys match.
    assert.equal(market.accounts.length, 10)
    const balances = await publicClient.multicall({
      allowFailure: false,
      contracts: market.accounts.flatMap(({ address }) => [
        { address: market.multicall, abi: multicallAbi, functionName: 'getEthBalance', args: [address] } as const,
        ...Object.values(market.tokens).map(
          (t) => ({ address: t.address, abi: erc20, functionName: 'balanceOf', args: [address] }) as const,
        ),
      ]),
    })
    for (const [i, balance] of balances.entries()) assert.ok(balance > 0n, `account balance ${i} is zero`)
    for (const [i, { address }] of market.accounts.entries()) {
      assert.ok(balances[i * 11] > parseEther('1000'), `${address} has little ETH`)
      assert.ok(
        (await publicClient.readContract({ address: market.weth, abi: erc20, functionName: 'balanceOf', args: [address] })) >=
          parseEther('100'),
      )
    }

    // Algebra: every pool has an initialized base plugin with a non-zero current fee.
    const algebraPools = market.pools.filter((p) => p.dex === 'QUICKSWAP_V4' || p.dex === 'HYDREX')
    for (const pool of algebraPools) {
      assert.ok(pool.plugin && BigInt(pool.plugin) !== 0n, `${pool.address} has no plugin`)
      assert.equal(await publicClient.readContract({ address: pool.plugin, abi: pluginAbi, functionName: 'isInitialized' }), true)
      assert.ok((await publicClient.readContract({ address: pool.plugin, abi: pluginAbi, functionName: 'getCurrentFee' })) > 0)
    }

    // Aerodrome: stable pools exactly between the stable coins; Infinity: the seeded protocol fees;
    // Slipstream: the spacing's fee while no trade has moved a price (the module's dynamic part is 0).
    for (const pool of market.pools.filter((p) => p.dex === 'AERODROME_V2LIKE')) {
      const pegged = pool.symbols.every((symbol) => bySymbol[symbol].peg === 'USD')
      const [, , , , stable] = await publicClient.readContract({
        address: pool.address as Address,
        abi: aerodromeAbi,
        functionName: 'metadata',
      })
      assert.equal(stable, pegged, `${pool.symbols.join('/')}: stable ${stable}`)
      assert.equal(pool.stable, pegged)
    }
    const infinity = market.pools.filter((p) => p.dex === 'PANCAKE_INFINITY_CL')
    for (const pool of infinity) {
      const [, , protocolFee, lpFee] = await publicClient.readContract({
        address: market.factories.PANCAKE_INFINITY_CL.poolManager,
        abi: infinityAbi,
        functionName: 'getSlot0',
        args: [pool.address],
      })
      assert.deepEqual([protocolFee, lpFee], [pool.protocolFee, pool.fee])
    }
    assert.ok(
      infinity.some((p) => ((p.protocolFee ?? 0) & 0xfff) > 1000),
      'no Infinity pool with a protocol fee above V4’s cap',
    )
    const slipstream = market.pools.filter((p) => p.dex === 'AERODROME_CL')
    assert.ok(new Set(slipstream.map((p) => p.tickSpacing)).size >= 4, 'Slipstream pools at too few spacings')
    for (const pool of slipstream)
      assert.equal(await publicClient.readContract({ address: pool.address as Address, abi: slipstreamAbi, functionName: 'fee' }), pool.fee)

    // The reload must see the state as dumped: read it before any trade.
    const reloadedPools = market.pools
    const block = await publicClient.request({ method: 'eth_blockNumber' })

    // A real trade on the QuickSwap WETH/USDC pool is charged the plugin's fee.
    const pool = algebraPools.find((p) => p.dex === 'QUICKSWAP_V4' && p.symbols.includes('WETH') && p.symbols.includes('USDC'))!
    const harness = market.helpers.poolHarness
    await writeContractAndWait({ devnet: seeded, address: market.weth, abi: erc20, functionName: 'approve', args: [harness, maxUint256] })
    const fee = await publicClient.readContract({ address: pool.plugin!, abi: pluginAbi, functionName: 'getCurrentFee' })
    const zeroToOne = pool.symbols[0] === 'WETH'
    const receipt = await writeContractAndWait({
      devnet: seeded,
      address: harness,
      abi: seeded.artifacts.PoolHarness.abi as Abi,
      functionName: 'swapAlgebra',
      args: [
        pool.address,
        seeded.account,
        zeroToOne,
        parseEther('1'),
        zeroToOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n,
        seeded.account,
      ],
    })
    const [swapFee] = parseEventLogs({
      abi: swapFeeAbi,
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === pool.address.toLowerCase()),
    })
    assert.ok(swapFee, 'no SwapFee event: the plugin did not set the fee')
    assert.equal(swapFee.args.overrideFee, fee)
    await seeded.stop()

    // Reload from the dump: same description, same pool state, same balances; the head is the dumped
    // block, then the empty block that sets the clock (setFixedBlockTime).
    const loaded = await startSeededDevnet({})
    running.push(loaded)
    assert.equal(loaded.source, 'dump')
    assert.deepEqual(loaded.market.pools, reloadedPools)
    assert.equal(BigInt(await loaded.publicClient.request({ method: 'eth_blockNumber' })), BigInt(block) + 1n)
    assert.deepEqual(await readSeededPools({ publicClient: loaded.publicClient, market: loaded.market }), states)
    const reloadedBalances = await loaded.publicClient.multicall({
      allowFailure: false,
      contracts: market.accounts.flatMap(({ address }) =>
        Object.values(market.tokens).map((t) => ({ address: t.address, abi: erc20, functionName: 'balanceOf', args: [address] }) as const),
      ),
    })
    assert.deepEqual(
      reloadedBalances,
      balances.filter((_, i) => i % 11 !== 0),
    )
    console.log(`timing: seed from scratch ${seeded.startMs} ms, load from dump ${loaded.startMs} ms (${market.pools.length} pools)`)

    // The prop AMMs: both pairs, every kind; stale after the launchpad's week of blocks, fresh
    // again (each quoting through its own view) after one re-pricing by the keeper.
    const { venues } = loaded.market.propAmms
    assert.equal(venues.length, 10)
    const keeper = await startPropAmmKeeper({ devnet: loaded, propAmms: loaded.market.propAmms, intervalMs: 0 })
    const venueQuote = async (venue: (typeof venues)[number]) => {
      const { target, callData } = propAmmQuoteCall({
        ...venue,
        tokenIn: venue.tokens[0],
        tokenOut: venue.tokens[1],
        amountIn: venue.symbols[0] === 'WETH' ? 10n ** 16n : 10n ** 5n,
      })
      const { data } = await loaded.publicClient.call({ to: target, data: callData, account: loaded.market.router })
      return decodePropAmmQuote(venue.dex, data as Hex)
    }
    for (const venue of venues) assert.equal(await venueQuote(venue), 0n, `${venue.dex} ${venue.symbols[0]} stale`)
    await keeper.tick()
    for (const venue of venues) assert.ok((await venueQuote(venue)) > 0n, `${venue.dex} ${venue.symbols[0]} fresh`)
    await keeper.stop()
    await loaded.stop()

    // Same seed, same market: a second seed from scratch gives the same pools and state.
    const again = await startSeededDevnet({ stateDir: join(stateDir, 'again'), forceSeed: true })
    running.push(again)
    assert.deepEqual(again.market.pools, reloadedPools)
    assert.deepEqual(await readSeededPools({ publicClient: again.publicClient, market: again.market }), states)

    // Positions at several ranges: a 30 WETH trade on a thin pool crosses initialized ticks, so the
    // in-range liquidity changes.
    const thin = again.market.pools.find((p) => p.dex === 'ALIEN_BASE_V3' && p.symbols.includes('DEGEN'))!
    const index = again.market.pools.indexOf(thin)
    await writeContractAndWait({ devnet: again, address: market.weth, abi: erc20, functionName: 'approve', args: [harness, maxUint256] })
    /** Sells `weth` WETH on `pool` through the harness, with no price limit. */
    const sellWeth = async (pool: (typeof again.market.pools)[number], weth: string) => {
      const wethIsToken0 = pool.symbols[0] === 'WETH'
      await writeContractAndWait({
        devnet: again,
        address: harness,
        abi: again.artifacts.PoolHarness.abi as Abi,
        functionName: 'swapV3',
        args: [
          pool.address,
          again.account,
          wethIsToken0,
          parseEther(weth),
          wethIsToken0 ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n,
          again.account,
        ],
      })
    }
    await sellWeth(thin, '30')
    const [thinAfter] = await readSeededPools({ publicClient: again.publicClient, market: { ...again.market, pools: [thin] } })
    assert.notEqual(thinAfter.liquidity, states[index].liquidity, 'the trade crossed no initialized tick')
    assert.ok(Math.abs(thinAfter.price / states[index].price - 1) > 0.01)

    // Slipstream's dynamic fee: a trade moves the tick away from its minute-long average; then, block
    // after block with no event, the fee moves as the average catches up.
    const deep = again.market.pools.find((p) => p.dex === 'AERODROME_CL' && p.symbols.includes('WETH') && p.symbols.includes('USDC'))!
    await sellWeth(deep, '60')
    const fees: number[] = []
    for (let b = 0; b < 5; b++) {
      await again.testClient.mine({ blocks: 3 })
      fees.push(await again.publicClient.readContract({ address: deep.address as Address, abi: slipstreamAbi, functionName: 'fee' }))
    }
    assert.ok(
      new Set(fees).size >= 3 && fees.every((f) => f > deep.fee),
      `Slipstream fee over blocks: ${fees.join(', ')} (base ${deep.fee})`,
    )
  },
)
