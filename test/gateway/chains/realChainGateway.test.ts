import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, getAddress, parseEther, type PublicClient, toHex } from 'viem'
import { connectGatewayChain } from '../../../src/gateway/chains/connectGatewayChain.ts'
import type { GatewayChainSettings } from '../../../src/gateway/chains/GatewayChainSettings.ts'
import { createKeyStore } from '../../../src/gateway/auth/createKeyStore.ts'
import { buildLaunchParams } from '../../../src/gateway/launchpad/buildLaunchParams.ts'
import { openDatabase } from '../../../src/gateway/store/openDatabase.ts'
import { multicall3Address } from '../../../src/chains/multicall3Address.ts'
import { revertToSnapshot } from '../../../src/devnet/revertToSnapshot.ts'
import { assertProblem } from '../http/assertProblem.ts'
import { type LaunchpadTestbed, startLaunchpadTestbed } from '../launchpad/launchpadTestbed.ts'

// The gateway on a chain it did not seed (issue 25): an anvil chain with id 4663, the launchpad
// deployed and used there by the test (two launches, a trade), then `npm start`'s entry point
// (src/server.ts) started as an operator would: RPC_URL, ROUTER_ADDRESS and CHAIN_CONFIG for the
// swap service, GATEWAY_CHAIN_CONFIG naming the launchpad's addresses, start block and paired
// assets, a key issued on the gateway's database beforehand (as `npm run gateway:keys` does). The
// gateway starts, serves exactly the configured chain from that node, follows launches made while
// it runs, and answers `unsupported_chain` for 8453 (the embedded default's chain, not configured).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const root = join(import.meta.dirname, '..', '..', '..')
const CHAIN_ID = 4663
const STARTING_TICK = -184_400
const SWAP_KEY = 'real-chain-gateway-key-0123456789'

let t: LaunchpadTestbed
let dir: string
let child: ChildProcess | undefined
let output = ''
let gatewayUrl: string
let key: string
let settings: GatewayChainSettings
const launched: { token: Address; pool: Address; symbol: string }[] = []

async function launch(symbol: string, salt: number) {
  const params = buildLaunchParams({
    name: `${symbol} coin`,
    symbol,
    creator: t.creator,
    pairedToken: t.weth,
    startingTick: STARTING_TICK,
    salt: toHex(salt, { size: 32 }),
  })
  const { token, pool } = await t.launch(params)
  launched.push({ token, pool, symbol })
  return { token, pool }
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const value = await check()
    if (value !== undefined) return value
    if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`the service exited (${child.exitCode}):\n${output}`)
    await sleep(100)
  }
  throw new Error(`timed out waiting for ${what}:\n${output}`)
}

/** `src/server.ts` as an operator starts it on this chain; `env` overrides. */
function spawnServer(env: Record<string, string>) {
  const started = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      RPC_URL: t.devnet.anvil.url,
      ROUTER_ADDRESS: t.harness,
      CHAIN_CONFIG: join(dir, 'chain.json'),
      GATEWAY_CHAIN_CONFIG: join(dir, 'gateway-chains.json'),
      GATEWAY_DATABASE_URL: join(dir, 'gateway.sqlite'),
      MARKET_DB_PATH: join(dir, 'market.sqlite'),
      API_KEYS: SWAP_KEY,
      API_KEYS_FILE: '',
      MIN_POOL_LIQUIDITY_WEI: '0',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  started.stdout!.on('data', (d) => (out += d))
  started.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)))
  return { child: started, output: () => out, exited }
}

const get = async (path: string) => {
  const res = await fetch(`${gatewayUrl}${path}`, { headers: { 'x-api-key': key } })
  return { res, body: (await res.clone().json()) as Json }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'real-chain-gateway-'))
  t = await startLaunchpadTestbed({ chainId: CHAIN_ID })
  const first = await launch('ALPHA', 1)
  await launch('BETA', 2)
  await t.swap({ token: first.token, pool: first.pool, side: 'buy', amountIn: parseEther('1'), from: t.traders[0] })

  // The swap service's chain config, as an operator writes it: its Uniswap V3 factory.
  writeFileSync(
    join(dir, 'chain.json'),
    JSON.stringify({ name: 'chain 4663', chainId: CHAIN_ID, weth: t.weth, deployments: { UNIV3: { source: t.v3Factory, fromBlock: 0 } } }),
  )
  // The gateway's: the launchpad, its start block, WETH alone of the factory's two paired assets.
  settings = {
    chainId: CHAIN_ID,
    name: 'Test chain 4663',
    nativeSymbol: 'MON',
    multicall3: multicall3Address,
    launchpad: {
      factory: t.launchpad.factory,
      feeLocker: t.launchpad.feeLocker,
      vestingVault: t.launchpad.vestingVault,
      startBlock: t.launchpad.fromBlock,
    },
    pairedAssets: [t.weth],
  }
  writeFileSync(
    join(dir, 'gateway-chains.json'),
    JSON.stringify({
      chains: [
        {
          chainId: CHAIN_ID,
          name: settings.name,
          nativeSymbol: 'MON',
          launchpad: { ...settings.launchpad, startBlock: String(settings.launchpad.startBlock) },
          pairedAssets: [t.weth],
        },
      ],
    }),
  )
  const db = await openDatabase({ url: join(dir, 'gateway.sqlite') })
  try {
    ;({ key } = await createKeyStore({ db }).create({
      // Limits out of the way: the test reads more than a Developer key's burst.
      plan: 'partner',
      customLimits: { unitsPerMinute: 100_000, burstPerSecond: 10_000, daily: 1_000_000, monthly: 10_000_000, maxPage: 200 },
      scopes: ['tokens:read', 'config:read', 'wallets:read', 'holders:read', 'launch:write'],
      owner: 'ops@example.com',
    }))
  } finally {
    await db.close()
  }
  const started = spawnServer({})
  child = started.child
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  gatewayUrl = await waitFor('the gateway to listen', () => output.match(/launch gateway listening on (http:\/\/[\d.:]+)/)?.[1], 180_000)
}, 300_000)

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await t?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('the banner names the configured chain and no development key (keys come from the operator)', () => {
  assert.match(
    output,
    /launch gateway listening on http:\/\/[\d.:]+ \(problem\+json; GET \/openapi\.json\), chains 4663 \(keys: npm run gateway:keys\)/,
  )
  assert.doesNotMatch(output, /gw_test_/)
})

test('/config reports exactly the configured chain, its addresses, and the configured paired assets only', async () => {
  const { res, body } = await get('/config?include=chains')
  assert.equal(res.status, 200, JSON.stringify(body))
  assert.deepEqual(body.data.chains, [
    {
      chain_id: CHAIN_ID,
      name: 'Test chain 4663',
      native_symbol: 'MON',
      wrapped_native: t.weth,
      contracts: {
        launch_factory: t.launchpad.factory,
        fee_locker: t.launchpad.feeLocker,
        vesting_vault: t.launchpad.vestingVault,
        uniswap_v3_factory: getAddress(t.v3Factory),
        multicall3: multicall3Address,
        // The swap service runs on this chain: its router serves the gateway's swaps.
        swap_router: t.harness,
      },
    },
  ])
  // The factory also allows USDC; the configuration offers WETH alone.
  const all = await get('/config?market=all')
  assert.equal(all.res.status, 200, JSON.stringify(all.body))
  assert.deepEqual(
    all.body.data.suites.map((s: Json) => [s.chain_id, s.paired_token.address]),
    [[CHAIN_ID, t.weth]],
  )
  assert.ok(all.body.data.as_of_block >= Number(t.launchpad.fromBlock))
})

test('the read routes serve the chain it points at: its launches and trades, read from that node', async () => {
  const list = await get(`/tokens?chain=${CHAIN_ID}&limit=50`)
  assert.equal(list.res.status, 200, JSON.stringify(list.body))
  assert.deepEqual(list.body.data.map((x: Json) => x.address).sort(), launched.map((l) => l.token).sort())
  const detail = await get(`/tokens/${CHAIN_ID}/${launched[0].token}`)
  assert.equal(detail.res.status, 200, JSON.stringify(detail.body))
  assert.equal(detail.body.data.symbol, 'ALPHA')
  assert.equal(detail.body.data.pool.address, launched[0].pool)
  assert.equal(detail.body.data.creator, t.creator)
  const trades = await get(`/tokens/${CHAIN_ID}/${launched[0].token}/trades`)
  assert.equal(trades.res.status, 200, JSON.stringify(trades.body))
  assert.equal(trades.body.data.length, 1)
  assert.equal(trades.body.data[0].side, 'buy')
})

test('a launch made while it runs is followed from the node', async () => {
  const { token } = await launch('GAMMA', 3)
  const found = await waitFor(
    'the new launch to be indexed',
    async () => {
      const { res, body } = await get(`/tokens/${CHAIN_ID}/${token}`)
      return res.status === 200 ? body : undefined
    },
    30_000,
  )
  assert.equal(found.data.symbol, 'GAMMA')
})

test("a reorganisation of that chain is followed: a launch on the dropped branch leaves the read API, the new branch's arrives", async () => {
  const fork = await t.devnet.testClient.snapshot()
  const dropped = await launch('DROPPED', 4)
  await waitFor(
    'the launch to be indexed',
    async () => ((await get(`/tokens/${CHAIN_ID}/${dropped.token}`)).res.status === 200 ? true : undefined),
    30_000,
  )
  // The chain is replaced from the fork on by a longer history with another launch.
  await revertToSnapshot({ testClient: t.devnet.testClient, id: fork })
  launched.pop()
  await t.devnet.testClient.mine({ blocks: 3 })
  const kept = await launch('KEPT', 5)
  await waitFor(
    'the new branch to be indexed',
    async () => ((await get(`/tokens/${CHAIN_ID}/${kept.token}`)).res.status === 200 ? true : undefined),
    30_000,
  )
  await assertProblem((await get(`/tokens/${CHAIN_ID}/${dropped.token}`)).res, 404, 'not_found', gatewayUrl)
  const list = await get(`/tokens?chain=${CHAIN_ID}&limit=50`)
  assert.deepEqual(list.body.data.map((x: Json) => x.address).sort(), launched.map((l) => l.token).sort())
})

test('a launch is prepared on that chain, paired with a configured asset only', async () => {
  const prepare = (body: object) =>
    fetch(`${gatewayUrl}/launches/prepare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ chain_id: CHAIN_ID, creator: t.stranger, name: 'Delta', symbol: 'DELTA', ...body }),
    })
  // One prepare per creator: a creator's launches per minute are a safety ceiling.
  const plan = await prepare({})
  const body = (await plan.json()) as Json
  assert.equal(plan.status, 200, JSON.stringify(body))
  assert.equal(body.data.chain_id, CHAIN_ID)
  assert.equal(body.data.tx.to, t.launchpad.factory)
  // USDC: allowed by the factory, not offered by the configuration.
  const usdc = await prepare({ paired_asset: t.usdc, creator: t.traders[1] })
  await assertProblem(usdc, 422, 'unsupported_operation', gatewayUrl)
})

test('a chain not configured is unsupported_chain, 8453 included', async () => {
  for (const path of [`/tokens/8453/${launched[0].token}`, '/tokens?chain=8453', `/tokens/143/${launched[0].token}/trades`]) {
    const { res } = await get(path)
    const problem = await assertProblem(res, 422, 'unsupported_chain', gatewayUrl)
    assert.match(problem.detail, /supported: 4663\./, path)
  }
})

test('a configuration that disagrees with the chain stops the start, naming the field', async () => {
  const swapService = {
    chainId: CHAIN_ID,
    client: t.devnet.publicClient as unknown as PublicClient,
    router: t.harness,
    quote: async () => {
      throw new Error('not asked')
    },
  }
  const connect = (s: Partial<GatewayChainSettings>) => connectGatewayChain({ settings: { ...settings, ...s }, swapService })
  const chain = await connect({})
  assert.equal(chain.fromBlock, t.launchpad.fromBlock)
  assert.equal(chain.wrappedNative, t.weth)
  await assert.rejects(connect({ chainId: 8453 }), /chain 8453 .*rpcUrls is required/)
  await assert.rejects(connect({ chainId: 8453, rpcUrls: [t.devnet.anvil.url] }), /chain 8453 .*the node serves chain 4663/)
  await assert.rejects(
    connect({ launchpad: { ...settings.launchpad, feeLocker: t.launchpad.vestingVault } }),
    new RegExp(`launchpad.feeLocker: the factory's is ${t.launchpad.feeLocker}`),
  )
  await assert.rejects(connect({ pairedAssets: [t.harness] }), new RegExp(`pairedAssets: the factory does not allow ${t.harness}`))
  await assert.rejects(
    connect({ launchpad: { ...settings.launchpad, factory: t.weth } }),
    /launchpad.factory .* does not answer as a LaunchFactory/,
  )
  await assert.rejects(
    connectGatewayChain({ settings: { ...settings, swapRouter: t.harness, chainId: 4663, rpcUrls: [t.devnet.anvil.url] } }),
    /swapRouter: swaps are served only on the swap service's chain/,
  )
})

test(
  'with RPC_URL and no gateway chain config the banner says the gateway is off; a dead gateway node stops the start, its URL redacted',
  { timeout: 180_000 },
  async () => {
    const off = spawnServer({ GATEWAY_CHAIN_CONFIG: '', MARKET_DB_PATH: join(dir, 'market-off.sqlite') })
    try {
      await waitFor('the banner', () => (/metrics: /.test(off.output()) ? true : undefined), 120_000)
      assert.match(off.output(), /launch gateway: not started \(RPC_URL without GATEWAY_CHAIN_CONFIG/)
      assert.doesNotMatch(off.output(), /launch gateway listening/)
    } finally {
      off.child.kill('SIGTERM')
      await off.exited
    }
    // The chain's own node for the gateway, dead, with a key in its path.
    const secret = 'k3y-in-the-path-0123456789'
    writeFileSync(
      join(dir, 'gateway-dead.json'),
      JSON.stringify({
        chains: [
          {
            chainId: CHAIN_ID,
            name: 'dead node',
            rpcUrls: [`http://127.0.0.1:9/v2/${secret}`],
            launchpad: { ...settings.launchpad, startBlock: String(settings.launchpad.startBlock) },
          },
        ],
      }),
    )
    const dead = spawnServer({
      GATEWAY_CHAIN_CONFIG: join(dir, 'gateway-dead.json'),
      GATEWAY_DATABASE_URL: join(dir, 'gateway-dead.sqlite'),
      MARKET_DB_PATH: join(dir, 'market-dead.sqlite'),
    })
    assert.equal(await dead.exited, 1, dead.output())
    assert.match(dead.output(), /launch gateway failed to start/)
    assert.match(dead.output(), /127\.0\.0\.1:9/)
    assert.doesNotMatch(dead.output(), new RegExp(secret))
  },
)
