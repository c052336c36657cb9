import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, test } from 'vitest'
import {
  type Abi,
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { devnetChainConfig, type DevnetFile } from '../../src/chains/devnetChainConfig.ts'
import { installOpStackFeePredeploys } from '../../src/chains/opStack/installOpStackFeePredeploys.ts'
import { routerLegCalldataBytes } from '../../src/chains/opStack/routerLegCalldataBytes.ts'
import { setL1FeeParameters } from '../../src/chains/opStack/setL1FeeParameters.ts'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { createUniswapV2Pair } from '../../src/devnet/createUniswapV2Pair.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadNpmArtifact } from '../../src/devnet/loadNpmArtifact.ts'
import { type SeededDevnet, startSeededDevnet } from '../../src/devnet/startSeededDevnet.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { createMarketState, type MarketState } from '../../src/market/createMarketState.ts'
import { createQuoteService, type QuoteService } from '../../src/quote/createQuoteService.ts'
import { EMBEDDED_L1_FEE_PARAMETERS, type SwapService, startSwapService } from '../../src/startSwapService.ts'
import { type RpcProxy, startRpcProxy } from '../fixtures/startRpcProxy.ts'
import { deploymentsFile } from '../../src/chains/chainDeployments.ts'

// The service on a chain it did not seed (issue 11's proof): a chain deployed by the project's
// seeding code, then the service started with only RPC_URL (a dead node first, then a node the
// test can kill), ROUTER_ADDRESS and a chain config naming the factories and their start blocks
// (and, by address, the venues no factory announces), no var/devnet.json. It discovers every pool; its quotes equal the embedded mode's (the same
// market code over devnet.json) on the same state and execute exactly; it survives the RPC
// dying and coming back, a reorg, and pools created while it runs.

const KEY = 'real-chain-key-0123456789abcdef'
const DEAD_NODE = 'http://127.0.0.1:9'
const MAX_AGE_MS = 1500
const erc20 = parseAbi([
  'function approve(address, uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function mint(address, uint256)',
  'function deposit() payable',
  'function transfer(address, uint256) returns (bool)',
])

let dir: string
let chain: SeededDevnet
let proxy: RpcProxy
let service: SwapService
let url: string
/** The embedded mode's market and quotes over the same chain: the reference. */
let reference: { solver: Solver; market: MarketState; quotes: QuoteService }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'real-chain-'))
  chain = await startSeededDevnet({ descriptionPath: join(dir, 'seeded.json') })
  await installOpStackFeePredeploys({ testClient: chain.testClient as never })
  await setL1FeeParameters({
    publicClient: chain.publicClient as never,
    testClient: chain.testClient as never,
    parameters: EMBEDDED_L1_FEE_PARAMETERS,
  })
  proxy = await startRpcProxy({ target: chain.anvil.url })
  // What an operator writes for this chain: its factories and the blocks they were deployed at, and
  // the venues no factory announces (the prop AMMs, WOOFi's vault, legacy Curve pools), by address.
  const embedded = devnetChainConfig({ file: chain.market as unknown as DevnetFile })
  const seeded = new Set(chain.market.pools.map((p) => p.address.toLowerCase()))
  const configuredOnly = embedded.pools
    .filter((p) => !seeded.has(p.address.toLowerCase()))
    .map(({ dex, address, router, bases, marginBps, template }) => ({ dex, address, router, bases, marginBps, template }))
  const chainConfig = {
    name: 'unseeded',
    chainId: embedded.chainId,
    weth: embedded.weth,
    multicall3: embedded.multicall3,
    opStack: true,
    deployments: deploymentsFile(embedded.deployments, 0),
    pools: configuredOnly,
  }
  writeFileSync(join(dir, 'chain.json'), JSON.stringify(chainConfig))
  const config = loadConfig({
    RPC_URL: `${DEAD_NODE},${proxy.url}`,
    ROUTER_ADDRESS: chain.market.router,
    CHAIN_CONFIG: join(dir, 'chain.json'),
    MARKET_DB_PATH: join(dir, 'market.sqlite'),
    API_KEYS: KEY,
    MIN_POOL_LIQUIDITY_WEI: '0',
    MARKET_POLL_INTERVAL_MS: '100',
    MAX_SNAPSHOT_AGE_MS: String(MAX_AGE_MS),
    RPC_TIMEOUT_MS: '2000',
    RATE_LIMIT_PER_MINUTE: '100000',
    // Both sides solve to convergence, so their quotes are equal whatever the machine's load.
    SOLVER_TIME_BUDGET_MS: '10000',
  })
  service = await startSwapService({ config, logger: false, onDiscoveryProgress: () => {} })
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address()
  assert.ok(address && typeof address === 'object')
  url = `http://127.0.0.1:${address.port}`

  const solver = await loadSolver({ nativeToken: embedded.weth, defaultTimeBudgetMs: 10_000 })
  const market = createMarketState({
    client: chain.publicClient as unknown as PublicClient,
    chain: { ...embedded, opStack: true },
    solver,
    maxSnapshotAgeMs: 60_000,
    l1BytesPerLeg: routerLegCalldataBytes(),
    log: () => {},
  })
  await market.start()
  const quotes = createQuoteService({
    solver,
    market,
    chainId: embedded.chainId,
    weth: embedded.weth,
    router: chain.market.router,
    getGasPriceWei: async () => market.feesAt(undefined)?.gasPriceWei ?? 0n,
    defaultTimeBudgetMs: 10_000,
  })
  reference = { solver, market, quotes }
}, 600_000)

afterAll(async () => {
  await service?.fastify.close()
  await reference?.market.stop()
  await reference?.solver.close()
  await proxy?.close()
  await chain?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}
const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 })
/** Waits (bounded) until both markets hold the chain's head block (by hash: a reorg keeps the height). */
const bothAtHead = async () => {
  const target = await chain.publicClient.getBlock({ blockTag: 'latest' })
  await reference.market.refresh()
  for (let i = 0; i < 400 && service.market.freshness().blockHash !== target.hash; i++) await sleep(25)
  assert.equal(service.market.freshness().blockHash, target.hash)
  assert.equal(reference.market.freshness().blockHash, target.hash)
}
const tokens = () => chain.market.tokens as Record<string, { address: Address; decimals: number }>

test('discovery from the factories (and the venues no factory announces, by address) finds every pool the embedded mode knows from devnet.json', async () => {
  assert.equal(service.devnet, undefined, 'no embedded chain')
  const ids = (m: Pick<MarketState, 'pools'>) =>
    m
      .pools()
      .map((s) => s.ref.id)
      .sort()
  assert.deepEqual(ids(service.market), ids(reference.market))
  const seeded = chain.market.pools.map((p) => p.address.toLowerCase())
  for (const id of seeded)
    assert.ok(service.market.pools().some((s) => s.ref.id === id) || service.market.skipped().some((s) => s.id === id), `${id} discovered`)
  // Curve's NG pools: their factory's event names none; they are listed from its registry.
  const ng = (chain.market as unknown as DevnetFile).curve?.pools.filter((p) => p.template === 'ng') ?? []
  assert.ok(ng.length >= 2)
  for (const { pool } of ng)
    assert.ok(
      service.market.pools().some((s) => s.ref.id === pool.toLowerCase()),
      `Curve NG pool ${pool} listed from its factory`,
    )
  assert.ok(service.market.pools().length >= 60, `${service.market.pools().length} pools`)
  assert.equal(service.rpc?.nodes()[0].state, 'open', "the dead node's circuit opened; the live one serves")
})

test("quotes through HTTP equal the embedded mode's on the same block, L1 fee included, and execute exactly", async () => {
  await bothAtHead()
  const t = tokens()
  const requests = [
    { tokenIn: t.WETH.address, tokenOut: t.USDC.address, amountIn: parseEther('1').toString() },
    { tokenIn: t.USDC.address, tokenOut: t.cbBTC.address, amountIn: (250_000n * 10n ** 6n).toString() },
    { tokenIn: t.DAI.address, tokenOut: t.AERO.address, amountIn: (10n ** 21n).toString() },
    { tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', tokenOut: t.cbETH.address, amountIn: parseEther('30').toString() },
  ].map((r) => ({ chainId: 8453, slippageBps: 50, ...r }))
  for (const request of requests) {
    const { status, json } = await post('/quote', request)
    assert.equal(status, 200, JSON.stringify(json))
    const expected = await reference.quotes.quote(request as never)
    assert.equal(json.routePlan.blockNumber, expected.blockNumber)
    assert.equal(json.routePlan.expectedAmountOut, expected.expectedAmountOut)
    assert.deepEqual(json.routePlan.routes, expected.routes)
    assert.deepEqual(json.routePlan.gasEstimate, expected.gasEstimate)
    const fees = service.market.feesAt(json.routePlan.blockNumber)
    assert.ok(
      fees?.l1 && BigInt(json.routePlan.gasEstimate.gasCostWei) > BigInt(json.routePlan.gasEstimate.gasUnits) * fees.gasPriceWei,
      'the L1 data fee is in gasCostWei',
    )
  }
  // Execute the first one as a user: /submit, sign, send; the recipient gets exactly expectedAmountOut.
  const trader = privateKeyToAccount(chain.market.accounts[7].privateKey)
  const wallet = createWalletClient({ account: trader, chain: chain.chain, transport: http(chain.anvil.url, { retryCount: 0 }) })
  const send = async (tx: { to: Address; data: Hex; value?: bigint }) =>
    waitForReceipt({
      publicClient: chain.publicClient,
      hash: await wallet.sendTransaction({
        ...tx,
        value: tx.value ?? 0n,
        gas: 1n << 24n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 0n,
      }),
    })
  await chain.testClient.setBalance({ address: trader.address, value: parseEther('1000') })
  await send({ to: t.WETH.address, data: encodeFunctionData({ abi: erc20, functionName: 'deposit' }), value: parseEther('10') })
  await send({
    to: t.WETH.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [chain.market.router, maxUint256] }),
  })
  await bothAtHead()
  const quoted = await post('/quote', requests[0])
  const submitted = await post('/submit', { quoteId: quoted.json.quoteId, user: trader.address })
  assert.equal(submitted.status, 200)
  const before = await chain.publicClient.readContract({
    address: t.USDC.address,
    abi: erc20,
    functionName: 'balanceOf',
    args: [trader.address],
  })
  const receipt = await send({ to: submitted.json.to, data: submitted.json.data, value: BigInt(submitted.json.value) })
  assert.equal(receipt.status, 'success')
  const after = await chain.publicClient.readContract({
    address: t.USDC.address,
    abi: erc20,
    functionName: 'balanceOf',
    args: [trader.address],
  })
  assert.equal(after - before, BigInt(quoted.json.routePlan.expectedAmountOut))
})

test('every node down: quotes are refused with 503 once the snapshot is older than MAX_SNAPSHOT_AGE_MS, then served again without a restart', async () => {
  const request = {
    chainId: 8453,
    tokenIn: tokens().WETH.address,
    tokenOut: tokens().USDC.address,
    amountIn: parseEther('1').toString(),
    slippageBps: 50,
  }
  assert.equal((await post('/quote', request)).status, 200)
  proxy.down()
  let refused: { status: number; json: any } | undefined
  for (let i = 0; i < 100 && !refused; i++) {
    const answer = await post('/quote', request)
    if (answer.status !== 200) refused = answer
    else await sleep(100)
  }
  assert.equal(refused?.status, 503)
  assert.match(refused?.json.error, /stale|market/i)
  const ready = await fetch(`${url}/ready`)
  assert.equal(ready.status, 503)
  const report = (await ready.json()) as any
  assert.ok(report.notReady.includes('marketStale'), JSON.stringify(report))
  assert.equal(report.rpc.nodes.length, 2, 'both nodes reported, by index')
  assert.equal(report.rpc.nodes[0].circuit, 'open', "the dead node's circuit is open")
  assert.ok(service.market.freshness().ageMs > MAX_AGE_MS)
  proxy.up()
  let served = false
  for (let i = 0; i < 200 && !served; i++) {
    served = (await post('/quote', request)).status === 200
    if (!served) await sleep(100)
  }
  assert.ok(served, 'quotes again once the node answers')
  assert.equal((await fetch(`${url}/ready`)).status, 200)
})

test('a reorg replacing the block of a swap is followed: the service re-reads and quotes what the embedded mode quotes on the new head', async () => {
  const t = tokens()
  const request = {
    chainId: 8453,
    tokenIn: t.WETH.address,
    tokenOut: t.USDC.address,
    amountIn: parseEther('5').toString(),
    slippageBps: 50,
  }
  await bothAtHead()
  const before = (await post('/quote', request)).json.routePlan.expectedAmountOut
  // The quoted trade itself, through the service's own plan (so through the pools the quote
  // prices), then dropped by a reorg.
  const trader = privateKeyToAccount(chain.market.accounts[7].privateKey)
  const quoted = await post('/execute', { ...request, user: trader.address })
  assert.equal(quoted.status, 200)
  const wallet = createWalletClient({ account: trader, chain: chain.chain, transport: http(chain.anvil.url, { retryCount: 0 }) })
  await waitForReceipt({
    publicClient: chain.publicClient,
    hash: await wallet.sendTransaction({
      to: quoted.json.to,
      data: quoted.json.data,
      gas: 1n << 24n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 0n,
    }),
  })
  await bothAtHead()
  assert.notEqual((await post('/quote', request)).json.routePlan.expectedAmountOut, before)
  const reorgs = service.market.freshness().reorgs
  await chain.publicClient.request({ method: 'anvil_reorg' as never, params: [1, []] as never })
  for (let i = 0; i < 200 && service.market.freshness().reorgs === reorgs; i++) await sleep(25)
  assert.equal(service.market.freshness().reorgs, reorgs + 1)
  await bothAtHead()
  const after = await post('/quote', request)
  assert.equal(after.status, 200, JSON.stringify(after.json))
  assert.equal(after.json.routePlan.expectedAmountOut, before, 'the swap is gone with its block')
  assert.equal(after.json.routePlan.expectedAmountOut, (await reference.quotes.quote(request as never)).expectedAmountOut)
})

test('a pool created while the service runs is discovered and quoted', async () => {
  const t = tokens()
  const token = await deployTestToken({ devnet: chain, name: 'Late Token', symbol: 'LATE', decimals: 18 })
  const factory = chain.market.factories.UNIV2 as unknown as { factory: Address }
  const { pair } = await createUniswapV2Pair({ devnet: chain, factory: factory.factory, tokenA: t.WETH.address, tokenB: token })
  await writeContractAndWait({
    devnet: chain,
    address: t.WETH.address,
    abi: erc20 as unknown as Abi,
    functionName: 'deposit',
    args: [],
    value: parseEther('100'),
  })
  await writeContractAndWait({
    devnet: chain,
    address: t.WETH.address,
    abi: erc20 as unknown as Abi,
    functionName: 'transfer',
    args: [pair, parseEther('100')],
  })
  await writeContractAndWait({
    devnet: chain,
    address: token,
    abi: erc20 as unknown as Abi,
    functionName: 'mint',
    args: [pair, 10n ** 24n],
  })
  await writeContractAndWait({
    devnet: chain,
    address: pair,
    abi: loadNpmArtifact({ name: 'UniswapV2Pair' }).abi as Abi,
    functionName: 'mint',
    args: [chain.account],
  })
  let quoted: { status: number; json: any } | undefined
  for (let i = 0; i < 200; i++) {
    quoted = await post('/quote', {
      chainId: 8453,
      tokenIn: t.WETH.address,
      tokenOut: token,
      amountIn: parseEther('1').toString(),
      slippageBps: 50,
    })
    if (quoted.status === 200) break
    await sleep(50)
  }
  assert.equal(quoted?.status, 200, JSON.stringify(quoted?.json))
  assert.equal(quoted?.json.routePlan.routes[0].legs[0].poolId.toLowerCase(), pair.toLowerCase())
})
