import assert from 'node:assert/strict'
import { beforeAll, test } from 'vitest'
import { type Abi, type Address, decodeAbiParameters, getAddress } from 'viem'
import { createPrng } from '../../test/differential/createPrng.ts'
import { testTokenAbi } from '../../test/differential/harnessContracts.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { deployCurveCryptoMarket, type DeployCurveCryptoMarketReturnType } from '../devnet/deployCurveCryptoMarket.ts'
import { deployCurveTricryptoMarket, type DeployCurveTricryptoMarketReturnType } from '../devnet/deployCurveTricryptoMarket.ts'
import { deployMarketTestTokens } from '../devnet/deployMarketTestTokens.ts'
import { loadStandInArtifacts } from '../devnet/loadStandInArtifacts.ts'
import { writeContractAndWait } from '../devnet/writeContractAndWait.ts'
import { encodeRouterLeg } from '../router/encodeRouterLeg.ts'
import { curveCryptoSampleAmounts } from './curveCrypto.ts'
import { curveKinds } from './curveKinds.ts'

// Our twocrypto-ng stand-in (contracts/curve/CurveTwocryptoPool.sol) on the three seeded pools:
// each quotes about the market's price less its mid fee; `get_dy` rises with the input; and over
// TRADES random trades (either way, 10^-6 to 40 % of the input coin's balance, `CROSSCHECK_CASES`
// for more) `exchange` pays exactly what `get_dy` answered at the same state, and the invariant D never
// falls (the fee stays in the pool). Then the service's reader (`curveCrypto.ts` through the CURVE
// adapter, `curveKinds.ts`): pools found from the factory's real `TwocryptoPoolDeployed` logs, each
// read into a `sampled` state whose every sample is the pool's own `get_dy` at that block, the
// tokens sorted for the solver, and the leg `curve {pool, i, j, indexType: 'uint256'}` that the
// router encoder turns into index type 1.
// The same for our tricrypto-ng stand-in (contracts/curve/CurveTricryptoPool.sol, on tricrypto-ng's
// own math contract) over USDC/cbBTC/WETH: TRADES random trades between any two of its coins,
// `exchange` paying exactly `get_dy`, D never falling; its reader (`curveTricrypto.ts`) finds it from
// `TricryptoPoolDeployed` and reads the `pairs` form: six ordered pairs, every sample `get_dy`.

const TRADES = Number(process.env.CROSSCHECK_CASES ?? 30)
const devnet = useDevnet()
const abi = loadStandInArtifacts({ protocol: 'curve' }).CurveTwocryptoPool.abi as Abi
let tokens: Record<string, { address: Address; decimals: number }>
let market: DeployCurveCryptoMarketReturnType
let tricrypto: DeployCurveTricryptoMarketReturnType
const tricryptoAbi = loadStandInArtifacts({ protocol: 'curve' }).CurveTricryptoPool.abi as Abi

beforeAll(async () => {
  tokens = await deployMarketTestTokens({ devnet })
  market = await deployCurveCryptoMarket({ devnet, tokens })
  tricrypto = await deployCurveTricryptoMarket({ devnet, tokens })
}, 120_000)

/** Trades `dx` of coin `i` for coin `j` on `pool` as the devnet account at `get_dy`'s answer as the minimum: what it received. */
async function tradeAtQuote(pool: Address, poolAbi: Abi, coins: readonly Address[], i: number, j: number, dx: bigint) {
  const quoted = (await devnet.publicClient.readContract({
    address: pool,
    abi: poolAbi,
    functionName: 'get_dy',
    args: [BigInt(i), BigInt(j), dx],
  })) as bigint
  await writeContractAndWait({ devnet, address: coins[i], abi: testTokenAbi, functionName: 'mint', args: [devnet.account, dx] })
  await writeContractAndWait({ devnet, address: coins[i], abi: testTokenAbi, functionName: 'approve', args: [pool, dx] })
  const balanceOf = () =>
    devnet.publicClient.readContract({ address: coins[j], abi: testTokenAbi, functionName: 'balanceOf', args: [devnet.account] })
  const before = await balanceOf()
  await writeContractAndWait({ devnet, address: pool, abi: poolAbi, functionName: 'exchange', args: [BigInt(i), BigInt(j), dx, quoted] })
  return { quoted, received: (await balanceOf()) - before }
}

test(
  `CurveTwocryptoPool: quotes at the market price, exchange pays exactly get_dy over ${TRADES} random trades`,
  { timeout: 120_000 },
  async () => {
    const { pools } = market
    assert.deepEqual(
      pools.map((p) => p.name),
      ['USDC/cbBTC', 'USDC/AERO', 'cbETH/DEGEN'],
    )
    const read = (pool: Address, functionName: string, args: readonly unknown[] = []) =>
      devnet.publicClient.readContract({ address: pool, abi, functionName, args }) as Promise<bigint>
    const decimalsOf = (coin: Address) => Object.values(tokens).find((t) => t.address === coin)?.decimals ?? 18
    // A thousandth of the pool's coin 1 sold pays its price in coin 0 less about the mid fee (0.26 %; the seeded balances are within 1 % of the price).
    for (const { name, pool, coins } of pools) {
      const price = Number(await read(pool, 'price_scale')) / 1e18
      const dx1 = (await read(pool, 'balances', [1n])) / 1000n
      const dy = await read(pool, 'get_dy', [1n, 0n, dx1])
      const paid = Number(dy) / 10 ** decimalsOf(coins[0]) / (Number(dx1) / 10 ** decimalsOf(coins[1]))
      assert.ok(paid < price * (1 - 0.002) && paid > price * (1 - 0.004), `${name}: a coin 1 pays ${paid}, price ${price}`)
      const sizes = [1n, 10n, 100n, 1_000n, 10_000n].map((k) => (k * 10n ** BigInt(decimalsOf(coins[0]))) / 100n)
      let last = 0n
      for (const dx of sizes) {
        const out = await read(pool, 'get_dy', [0n, 1n, dx])
        assert.ok(out > last, `${name}: get_dy not rising at ${dx}`)
        last = out
      }
    }
    const prng = createPrng({ seed: 2121 })
    for (let k = 0; k < TRADES; k++) {
      const { name, pool, coins } = prng.pick(pools)
      const i = prng.int(0, 1)
      const j = 1 - i
      const balance = await read(pool, 'balances', [BigInt(i)])
      const dx = (balance * prng.logBigint(1n, 400_000n)) / 1_000_000n
      const dBefore = await read(pool, 'D')
      const { quoted, received } = await tradeAtQuote(pool, abi, coins, i, j, dx)
      assert.equal(received, quoted, `${name} trade ${k}: ${dx} of coin ${i}`)
      assert.ok((await read(pool, 'D')) >= dBefore, `${name} trade ${k}: D fell`)
    }
  },
)

test(
  `CurveTricryptoPool: quotes at the market prices, exchange pays exactly get_dy over ${TRADES} random trades between any two coins`,
  { timeout: 120_000 },
  async () => {
    const [{ name, pool, coins }] = tricrypto.pools
    assert.equal(name, 'USDC/cbBTC/WETH')
    const read = (functionName: string, args: readonly unknown[] = []) =>
      devnet.publicClient.readContract({ address: pool, abi: tricryptoAbi, functionName, args }) as Promise<bigint>
    assert.equal(((await read('MATH')) as unknown as Address).toLowerCase(), tricrypto.math.toLowerCase())
    const decimalsOf = (coin: Address) => Object.values(tokens).find((t) => t.address.toLowerCase() === coin.toLowerCase())!.decimals
    // A thousandth of coin 1 or 2 sold pays its price in coin 0 less about the mid fee (0.03 %).
    for (const k of [1, 2]) {
      const price = Number(await read('price_scale', [BigInt(k - 1)])) / 1e18
      const dx = (await read('balances', [BigInt(k)])) / 1000n
      const dy = await read('get_dy', [BigInt(k), 0n, dx])
      const paid = Number(dy) / 10 ** decimalsOf(coins[0]) / (Number(dx) / 10 ** decimalsOf(coins[k]))
      assert.ok(paid < price * (1 - 0.0003) && paid > price * (1 - 0.002), `${name}: a coin ${k} pays ${paid}, price ${price}`)
    }
    const prng = createPrng({ seed: 2323 })
    for (let k = 0; k < TRADES; k++) {
      const i = prng.int(0, 2)
      const j = (i + prng.int(1, 2)) % 3
      const dx = ((await read('balances', [BigInt(i)])) * prng.logBigint(1n, 400_000n)) / 1_000_000n
      const dBefore = await read('D')
      const { quoted, received } = await tradeAtQuote(pool, tricryptoAbi, coins, i, j, dx)
      assert.equal(received, quoted, `${name} trade ${k}: ${dx} of coin ${i} for coin ${j}`)
      assert.ok((await read('D')) >= dBefore, `${name} trade ${k}: D fell`)
    }
  },
)

test('the CURVE reader: twocrypto-ng pools discovered from TwocryptoPoolDeployed, sampled from their own get_dy, executed with uint256 indexes', async () => {
  const logs = await devnet.publicClient.getLogs({ address: market.factory, fromBlock: 0n })
  const found = logs.filter((log) => curveKinds.discoveryTopics.includes(log.topics[0]!)).map((log) => curveKinds.poolFromDiscoveryLog(log))
  assert.deepEqual(
    found.map((f) => ('ref' in f ? [f.ref.id, f.ref.curveTemplate] : f)),
    market.pools.map((p) => [p.pool.toLowerCase(), 'twocrypto-ng']),
  )
  const blockNumber = await devnet.publicClient.getBlockNumber()
  const block = await devnet.publicClient.getBlock({ blockNumber })
  const executor: Address = '0x00000000000000000000000000000000000c0de5'
  for (const [k, { pool, coins }] of market.pools.entries()) {
    const { ref } = found[k] as { ref: Parameters<typeof curveKinds.readPool>[0]['ref'] }
    const snapshot = await curveKinds.readPool({
      client: devnet.publicClient,
      ref,
      blockNumber,
      nextBlock: { number: blockNumber + 1n, timestamp: block.timestamp + 2n },
      executor,
    })
    assert.deepEqual(
      snapshot.ref.coins,
      coins.map((c) => c.toLowerCase()),
    )
    assert.equal(snapshot.refreshEveryBlock, false, 'no A/gamma ramp: re-read on its events only')
    const { state, tokens: sorted } = snapshot.input
    assert.ok(state.model === 'sampled' && 'zeroForOne' in state)
    assert.equal(state.marginBps, 1)
    assert.ok(BigInt(sorted[0]) < BigInt(sorted[1]))
    // Every sample is get_dy at the read block, the token order being the solver's.
    const zeroIsCoin0 = sorted[0].toLowerCase() === coins[0].toLowerCase()
    for (const [samples, i] of [
      [state.zeroForOne, zeroIsCoin0 ? 0 : 1],
      [state.oneForZero, zeroIsCoin0 ? 1 : 0],
    ] as const) {
      const balance = (await devnet.publicClient.readContract({
        address: pool,
        abi,
        functionName: 'balances',
        args: [BigInt(i)],
        blockNumber,
      })) as bigint
      const decimals = Object.values(tokens).find((t) => t.address === coins[i])!.decimals
      assert.ok(samples.length >= curveCryptoSampleAmounts({ decimals, reserveIn: balance }).length - 1, `${pool}: most sizes sampled`)
      for (const [amountIn, amountOut] of samples) {
        const dy = await devnet.publicClient.readContract({
          address: pool,
          abi,
          functionName: 'get_dy',
          args: [BigInt(i), BigInt(1 - i), BigInt(amountIn)],
          blockNumber,
        })
        assert.equal(BigInt(amountOut), dy, `${pool}: get_dy(${i}, ${1 - i}, ${amountIn})`)
      }
    }
    const leg = curveKinds.encodeLeg(snapshot.ref, { tokenIn: coins[1], tokenOut: coins[0] })
    assert.deepEqual(leg, { kind: 'curve', pool: getAddress(pool), i: 1, j: 0, indexType: 'uint256' })
    const encoded = encodeRouterLeg({
      leg: { dex: 'CURVE', tokenIn: coins[1], tokenOut: coins[0], amountIn: '1000', minOut: '1', data: leg },
    })
    assert.deepEqual(decodeAbiParameters([{ type: 'uint8' }, { type: 'uint8' }, { type: 'uint8' }], encoded.data), [1, 0, 1])
  }
})

test('the CURVE reader: a tricrypto-ng pool discovered from TricryptoPoolDeployed, sampled by ordered pair from its own get_dy', async () => {
  const logs = await devnet.publicClient.getLogs({ address: tricrypto.factory, fromBlock: 0n })
  const found = logs.filter((log) => curveKinds.discoveryTopics.includes(log.topics[0]!)).map((log) => curveKinds.poolFromDiscoveryLog(log))
  const [{ pool, coins }] = tricrypto.pools
  assert.deepEqual(
    found.map((f) => ('ref' in f ? [f.ref.id, f.ref.curveTemplate] : f)),
    [[pool.toLowerCase(), 'tricrypto-ng']],
  )
  const blockNumber = await devnet.publicClient.getBlockNumber()
  const block = await devnet.publicClient.getBlock({ blockNumber })
  const snapshot = await curveKinds.readPool({
    client: devnet.publicClient,
    ref: (found[0] as { ref: Parameters<typeof curveKinds.readPool>[0]['ref'] }).ref,
    blockNumber,
    nextBlock: { number: blockNumber + 1n, timestamp: block.timestamp + 2n },
    executor: '0x00000000000000000000000000000000000c0de5',
  })
  assert.deepEqual(
    snapshot.ref.coins,
    coins.map((c) => c.toLowerCase()),
  )
  assert.deepEqual(snapshot.input.tokens, coins, "the pool's order: the pairs name coins by index")
  assert.equal(snapshot.refreshEveryBlock, false)
  const { state } = snapshot.input
  assert.ok(state.model === 'sampled' && 'pairs' in state)
  assert.equal(state.marginBps, 1)
  assert.deepEqual(
    state.pairs.map((p) => [p.tokenIn, p.tokenOut]),
    [
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 2],
      [2, 0],
      [2, 1],
    ],
  )
  for (const { tokenIn: i, tokenOut: j, samples } of state.pairs) {
    const balance = (await devnet.publicClient.readContract({
      address: pool,
      abi: tricryptoAbi,
      functionName: 'balances',
      args: [BigInt(i)],
      blockNumber,
    })) as bigint
    const decimals = Object.values(tokens).find((t) => t.address.toLowerCase() === coins[i].toLowerCase())!.decimals
    // The largest sizes (near the whole balance) may leave the math's range: the curve ends there.
    assert.ok(samples.length >= curveCryptoSampleAmounts({ decimals, reserveIn: balance }).length - 8, `${i} → ${j}: most sizes sampled`)
    for (const [amountIn, amountOut] of samples) {
      const args = [BigInt(i), BigInt(j), BigInt(amountIn)]
      const dy = await devnet.publicClient.readContract({ address: pool, abi: tricryptoAbi, functionName: 'get_dy', args, blockNumber })
      assert.equal(BigInt(amountOut), dy, `get_dy(${i}, ${j}, ${amountIn})`)
    }
  }
  const leg = curveKinds.encodeLeg(snapshot.ref, { tokenIn: coins[2], tokenOut: coins[0] })
  assert.deepEqual(leg, { kind: 'curve', pool: getAddress(pool), i: 2, j: 0, indexType: 'uint256' })
})
