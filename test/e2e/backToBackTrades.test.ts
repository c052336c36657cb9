import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, encodeFunctionData, type Hex, parseAbi } from 'viem'
import { describePlanPools } from '../../bench/soak/describePlanPools.ts'
import { runBackToBackSoak } from '../../bench/soak/runBackToBackSoak.ts'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { fundTrader } from '../../src/devnet/fundTrader.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'

// A plan's blockNumber is a promise (docs/quote.md): the plan is exact on the state at that block,
// for execution in the next one. The back-to-back soak (bench/soak/, `npm run soak`) in a bounded
// form: the running service, its own poller (every 100 ms rather than the default 500: each trade
// waits for the poller to see the block it was mined in, and the interval changes only how long),
// no in-process refresh; random trades over every token and every kind on the market, dust to $3M,
// native in and out, fees and splits, one after another, each quoted until its plan names the
// chain's head and mined in the block after it. Every trade must pay exactly expectedAmountOut; a trade that does not is printed
// with its pools as the solver priced them beside the chain's state at the plan's block.
// CURVE, on the same running service: Curve-only plans over the seeded StableSwap pools (NG 2-, 3-
// and 4-coin; the legacy pool, held inside the meta pool over it, after a direct swap made it the
// best; the meta pool's underlying coins after a direct swap on it) pay exactly expectedAmountOut,
// with gas estimates within 15 % (docs/dex-kinds.md, CURVE); so do Curve-only plans through the
// seeded twocrypto-ng pools (our CryptoSwap stand-in), their legs re-quoted from get_dy and listed
// as sampled.

const TRADES = Number(process.env.SOAK_TRADES ?? 100)
const SEED = Number(process.env.SOAK_SEED ?? 4711)
const KEY = 'soak-test-key-0123456789abcdef'

let service: SwapService
let url: string

beforeAll(async () => {
  // The service's own defaults (snapshot age), with a key, a limit for a busy client and a 100 ms poll.
  const config = loadConfig({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'silent', MARKET_POLL_INTERVAL_MS: '100' })
  // The seeded Curve meta pool is followed too (off by default: docs/dex-kinds.md, CURVE).
  service = await startSwapService({ config, logger: false, curveMetaPools: true })
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address()
  assert.ok(address && typeof address === 'object')
  url = `http://127.0.0.1:${address.port}`
}, 600_000)
afterAll(async () => {
  await service?.fastify.close()
})

test(
  `${TRADES} back-to-back trades through HTTP on the live poller: each pays exactly expectedAmountOut in the block after its plan's`,
  { timeout: 30 * 60_000 },
  async () => {
    assert.ok(service.devnet, 'the embedded chain')
    const { counts, differences } = await runBackToBackSoak({ url, apiKey: KEY, devnet: service.devnet.market, trades: TRADES, seed: SEED })
    console.log(`back-to-back soak: ${JSON.stringify(counts)}`)
    assert.deepEqual(differences, [], 'every trade pays exactly what its plan said')
    // The run exercised what it is about: pools moved by earlier trades (the large ones), splits,
    // multi-hop, native in and out, fees, and every kind on the market.
    // Plans with a CryptoSwap leg before another leg pay at least their amount (docs/dex-kinds.md, CURVE).
    assert.equal(counts.exact + counts.sampledAtLeast, TRADES)
    assert.ok(counts.sampledAtLeast <= TRADES / 10, JSON.stringify(counts))
    assert.ok(counts.splits > 0 && counts.multiHop > 0, JSON.stringify(counts))
    assert.ok(counts.nativeIn > 0 && counts.nativeOut > 0 && counts.withFee > 0, JSON.stringify(counts))
    const kinds = new Set(service.devnet.market.pools.map((p) => p.dex))
    assert.deepEqual(
      [...kinds].filter((k) => !counts.legsByKind[k]),
      [],
      'a kind on the market no trade went through',
    )
  },
)

test('GET /market/pools/{poolId} shows each pool as the solver priced it, equal to the chain at that block; the diagnosis says where they differ', async () => {
  assert.ok(service.devnet)
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { 'x-api-key': KEY } })
    return { status: res.status, json: (await res.json()) as any }
  }
  const blockNumber = Number(service.market.freshness().blockNumber)
  const poolIds = service.market.pools().map((p) => p.ref.id)
  const lines = await describePlanPools({
    fetchServicePool: (poolId, block) => get(`/market/pools/${poolId}?blockNumber=${block}`),
    client: service.publicClient,
    poolIds,
    blockNumber,
    blockTimeSec: 2,
    executor: service.devnet.market.router,
  })
  // One line a pool (describePlanPools takes each id once, whatever its case; a pool that differs
  // from the chain would add two more).
  assert.equal(lines.length, new Set(poolIds.map((id) => id.toLowerCase())).size, lines.join('\n'))
  for (const line of lines) assert.match(line, /equal to the chain's at the plan's block/)
  // A block before every kept version of a pool the soak moved, an unknown pool, a malformed id.
  assert.equal((await get(`/market/pools/${poolIds[0]}?blockNumber=1`)).status, 404)
  assert.equal((await get(`/market/pools/0x${'12'.repeat(20)}`)).status, 404)
  const bad = await get('/market/pools/0x1234')
  assert.equal(bad.status, 400)
  assert.match(bad.json.error, /poolId/)
  assert.equal((await fetch(`${url}/market/pools/${poolIds[0]}`)).status, 401)
})

test('CURVE over HTTP: plans through the seeded NG pools and the meta pool’s underlying coins pay exactly expectedAmountOut, gas within 15 %; a swap on a Curve pool (the meta pool’s base pool included) reprices the next quote', async () => {
  assert.ok(service.devnet)
  const devnet = service.devnet
  const { market: seeded, publicClient } = devnet
  const router = seeded.router
  const trader = seeded.accounts[5]
  const recipient = seeded.accounts[6].address
  const wallet = await fundTrader({ devnet, privateKey: trader.privateKey, spender: router })
  const fees = { gas: 1n << 24n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 0n }
  const erc20 = parseAbi([
    'function balanceOf(address) view returns (uint256)',
    'function approve(address, uint256) returns (bool)',
    'function exchange(int128 i, int128 j, uint256 dx, uint256 min_dy) returns (uint256)',
  ])
  const token = (symbol: string) => seeded.tokens[symbol].address
  const gas: string[] = []
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  // The market first reaches the chain's head (nothing else trades here), then `/execute` until the
  // plan names that block: the plan is a promise about the block after it.
  const execute = async (symbolIn: string, symbolOut: string, whole: bigint, gasTolerance = 0.15) => {
    const amountIn = whole * 10n ** BigInt(seeded.tokens[symbolIn].decimals)
    const request = {
      chainId: seeded.chainId,
      tokenIn: token(symbolIn),
      tokenOut: token(symbolOut),
      amountIn: amountIn.toString(),
      slippageBps: 10,
      splitEnabled: true,
      allowedDexes: ['CURVE'],
      user: recipient,
      // Converged (not cut short by a busy machine), so the plan and its gas are the same every run.
      timeBudgetMs: 10_000,
    }
    const head = await publicClient.getBlockNumber({ cacheTime: 0 })
    let answer = await call('/execute', request)
    for (let attempt = 0; answer.status === 200 && BigInt(answer.json.routePlan.blockNumber) < head; attempt++) {
      assert.ok(attempt < 1000, `plans still name a block before ${head}`)
      await new Promise((r) => setTimeout(r, 10))
      answer = await call('/execute', request)
    }
    assert.equal(answer.status, 200, `${symbolIn}->${symbolOut}: ${JSON.stringify(answer.json)}`)
    const plan = answer.json.routePlan
    const before = (await publicClient.readContract({
      address: token(symbolOut),
      abi: erc20,
      functionName: 'balanceOf',
      args: [recipient],
    })) as bigint
    const hash = await wallet.sendTransaction({
      to: answer.json.to as Address,
      data: answer.json.data as Hex,
      value: BigInt(answer.json.value),
      ...fees,
    })
    const receipt = await waitForReceipt({ publicClient, hash })
    assert.equal(receipt.status, 'success')
    assert.equal(receipt.blockNumber, BigInt(plan.blockNumber) + 1n, 'mined in the block after the plan')
    const after = (await publicClient.readContract({
      address: token(symbolOut),
      abi: erc20,
      functionName: 'balanceOf',
      args: [recipient],
    })) as bigint
    assert.equal(after - before, BigInt(plan.expectedAmountOut), `${symbolIn}->${symbolOut}: the recipient got what the plan said`)
    const legs = plan.routes.flatMap((r: any) => r.legs)
    for (const leg of legs) assert.deepEqual([leg.dex, leg.data.kind], ['CURVE', 'curve'])
    const estimate = BigInt(plan.gasEstimate.gasUnits)
    gas.push(`${symbolIn}->${symbolOut} ${legs.length} legs: estimate ${estimate} used ${receipt.gasUsed}`)
    // The registry's Curve figures (docs/gas-model.md) hold the estimate within 15 %, as the end-to-end suite's.
    const error = Number(estimate - receipt.gasUsed) / Number(receipt.gasUsed)
    assert.ok(Math.abs(error) <= gasTolerance, `${symbolIn}->${symbolOut}: gas estimate ${estimate}, used ${receipt.gasUsed}`)
    return { plan, pools: legs.map((l: any) => l.poolId.toLowerCase() as string) }
  }

  // Stable pairs over the seeded NG pools: 2 coins (oracle-rated), 3, and 4 (with an ERC-4626
  // coin); $3M of USDbC splits over the pools holding it.
  const used = new Set<string>()
  for (const [a, b, whole] of [
    ['USDC', 'DAI', 250_000n],
    ['USDbC', 'DAI', 3_000_000n],
    ['DAI', 'USDbC', 40_000n],
    ['cbETH', 'wstETH', 120n],
    ['USDC', 'USDbC', 1_000n],
  ] as const)
    for (const pool of (await execute(a, b, whole)).pools) used.add(pool)
  const byTemplate = (template: string) => seeded.curve.pools.filter((p) => p.template === template).map((p) => p.pool.toLowerCase())
  assert.ok(byTemplate('ng').filter((p) => used.has(p)).length >= 3, `plans used ${[...used]}`)

  // A swap straight on the legacy pool (no router, no quote): $3M of DAI in makes its DAI cheaper
  // than the NG pools' (4 bps against their 1 bp kept it out until then), so the next USDbC → DAI
  // quote prices the pool's new state, pays more and exactly that. The legacy pool is the base pool of
  // the seeded meta pool, which holds its state: the solver refuses it as a venue of its own, and
  // the plan goes through the meta pool's exchange_underlying (base coin to base coin), re-read
  // after a swap that only the base pool logged.
  const legacy = byTemplate('legacy')[0] as Address
  const meta = byTemplate('meta')[0] as Address
  const first = await execute('USDbC', 'DAI', 100_000n)
  const approve = await wallet.sendTransaction({
    to: token('DAI'),
    data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [legacy, 2n ** 255n] }),
    ...fees,
  })
  await waitForReceipt({ publicClient, hash: approve })
  const swap = await wallet.sendTransaction({
    to: legacy,
    data: encodeFunctionData({ abi: erc20, functionName: 'exchange', args: [1n, 0n, 3_000_000n * 10n ** 18n, 0n] }),
    ...fees,
  })
  assert.equal((await waitForReceipt({ publicClient, hash: swap })).status, 'success')
  const second = await execute('USDbC', 'DAI', 100_000n)
  assert.ok(second.pools.includes(meta), `after the swap on the legacy pool the plan went through ${second.pools}`)
  const underlyingLegs = (plan: any) => plan.routes.flatMap((r: any) => r.legs).filter((l: any) => l.poolId.toLowerCase() === meta)
  assert.ok(underlyingLegs(second.plan).every((l: any) => l.data.underlying === true && l.data.i > 0 && l.data.j > 0))
  assert.ok(
    BigInt(second.plan.expectedAmountOut) > BigInt(first.plan.expectedAmountOut),
    `after $3M of DAI into the legacy pool: ${second.plan.expectedAmountOut}, before ${first.plan.expectedAmountOut}`,
  )
  // $2M of USDC sold straight into the meta pool (its own exchange(0, 1), for the base LP token):
  // its USDC is now the cheapest, so DAI → USDC goes through its exchange_underlying (DAI deposited
  // into the base pool, the LP tokens sold for USDC) and pays exactly the plan.
  const usdcIn = 2_000_000n * 10n ** BigInt(seeded.tokens.USDC.decimals)
  for (const data of [
    encodeFunctionData({ abi: erc20, functionName: 'approve', args: [meta as Address, 2n ** 255n] }),
    encodeFunctionData({ abi: erc20, functionName: 'exchange', args: [0n, 1n, usdcIn, 0n] }),
  ]) {
    const hash = await wallet.sendTransaction({ to: data.startsWith('0x095ea7b3') ? token('USDC') : (meta as Address), data, ...fees })
    assert.equal((await waitForReceipt({ publicClient, hash })).status, 'success')
  }
  const throughMeta = await execute('DAI', 'USDC', 100_000n)
  assert.ok(throughMeta.pools.includes(meta), `after $2M of USDC into the meta pool DAI → USDC went through ${throughMeta.pools}`)
  assert.ok(
    underlyingLegs(throughMeta.plan).every((l: any) => l.data.underlying === true && l.data.j === 0),
    'DAI → USDC through the meta pool is exchange_underlying from a base coin to its coin',
  )
  for (const { pools } of [first, second, throughMeta]) assert.ok(!pools.includes(legacy), 'the legacy pool is never a venue of its own')

  // CryptoSwap (docs/dex-kinds.md, CURVE): the seeded twocrypto-ng pools (our stand-in), priced from
  // their own get_dy and asked again before the answer: each plan's legs go through them with
  // uint256 indexes, are listed as sampled, and pay exactly expectedAmountOut (nothing traded between
  // the re-quote and the swap).
  const crypto = (seeded.curveCrypto?.pools ?? []).map((p) => p.pool.toLowerCase())
  assert.equal(crypto.length, 3, 'the seed holds three twocrypto-ng pools')
  for (const [a, b, whole] of [
    ['USDC', 'cbBTC', 20_000n],
    ['AERO', 'USDC', 50_000n],
    ['DEGEN', 'cbETH', 5_000_000n],
  ] as const) {
    // Our stand-in's gas grows with the pool's imbalance (its root-finding's iterations; the soak
    // above moves these pools): 40 %, not 15 % (docs/gas-model.md, *Curve CryptoSwap*).
    const { plan, pools } = await execute(a, b, whole, 0.4)
    assert.ok(pools.length > 0 && pools.every((p: string) => crypto.includes(p)), `${a}->${b} went through ${pools}`)
    const legs = plan.routes.flatMap((r: any) => r.legs)
    for (const leg of legs) assert.equal(leg.data.indexType, 'uint256', `${a}->${b}: CryptoSwap's exchange takes uint256 indexes`)
    assert.deepEqual(
      (plan.metadata.sampledLegs ?? []).map((s: any) => s.poolId.toLowerCase()),
      pools,
      `${a}->${b}: the CryptoSwap legs are listed as sampled`,
    )
  }
  // tricrypto-ng (our stand-in on its own math contract, USDC/cbBTC/WETH): priced by ordered pair
  // from its get_dy, a plan trades it through one pair (the samples price the untouched pool), is
  // re-quoted, listed as sampled and pays exactly expectedAmountOut.
  const tricrypto = (seeded.curveTricrypto?.pools ?? []).map((p) => p.pool.toLowerCase())
  assert.equal(tricrypto.length, 1, 'the seed holds one tricrypto-ng pool')
  for (const [a, b, whole] of [
    ['WETH', 'cbBTC', 20n],
    ['USDC', 'WETH', 30_000n],
  ] as const) {
    // Its invariant is the math contract's Newton steps: gas within the 15 % of the other CURVE legs.
    const { plan, pools } = await execute(a, b, whole)
    assert.ok(pools.includes(tricrypto[0]), `${a}->${b} went through ${pools}`)
    const legs = plan.routes.flatMap((r: any) => r.legs).filter((l: any) => l.poolId.toLowerCase() === tricrypto[0])
    assert.equal(new Set(legs.map((l: any) => `${l.data.i}→${l.data.j}`)).size, 1, `${a}->${b}: one ordered pair of the pool`)
    for (const leg of legs) assert.equal(leg.data.indexType, 'uint256')
    const sampled = (plan.metadata.sampledLegs ?? []).map((s: any) => s.poolId.toLowerCase())
    assert.equal(sampled.filter((p: string) => p === tricrypto[0]).length, legs.length, `${a}->${b}: its legs are listed as sampled`)
  }
  console.log(`curve over HTTP: ${gas.join('; ')}`)
})
