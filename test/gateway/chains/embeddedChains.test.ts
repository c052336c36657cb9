import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { getAddress, parseAbiItem } from 'viem'
import { type LaunchpadChain, startLaunchpadChains } from '../../../src/devnet/launchpad/startLaunchpadChain.ts'
import { type SeededDevnet, startSeededDevnet } from '../../../src/devnet/startSeededDevnet.ts'
import { SCOPES } from '../../../src/gateway/auth/scopes.ts'
import { type EmbeddedGateway, startEmbeddedGateway } from '../../../src/gateway/startEmbeddedGateway.ts'
import { assertProblem } from '../http/assertProblem.ts'

// The embedded default's three chains (issue 25): 8453 (the seeded market and its launchpad) and
// the launchpad-only chains 4663 and 143, each its own anvil with its own seeded launchpad, served
// by one gateway as `npm start` serves them (startEmbeddedGateway). Per-chain routes answer from
// each chain's own launches, a token of one chain is not found on another, swaps are refused where
// no swap market runs, and `unsupported_chain` names the three. (Without a swap service here: the
// swap routes on 8453 are swapRoutes.test.ts's.)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const swapEvent = parseAbiItem(
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
)
let dir: string
let devnet: SeededDevnet
let others: LaunchpadChain[]
let gateway: EmbeddedGateway
let key: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'embedded-chains-'))
  ;[devnet, others] = await Promise.all([startSeededDevnet({}), startLaunchpadChains()])
  gateway = await startEmbeddedGateway({ devnet, others, root: dir, databaseUrl: join(dir, 'gateway.sqlite'), port: 0 })
  ;({ key } = await gateway.deps.keys.create({
    environment: 'test',
    plan: 'partner',
    customLimits: { unitsPerMinute: 100_000, burstPerSecond: 10_000, daily: 1_000_000, monthly: 10_000_000, maxPage: 200 },
    scopes: SCOPES,
    owner: 'tests@example.com',
  }))
}, 900_000)

afterAll(async () => {
  await gateway?.close()
  await Promise.all([devnet?.stop(), ...(others ?? []).map((c) => c.stop())])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const get = async (path: string) => {
  const res = await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': key } })
  return { res, body: (await res.clone().json()) as Json }
}
const chainOf = (chainId: number) => others.find((c) => c.market.chainId === chainId)!

test('three chains, each its own anvil and launchpad: /config lists them with their contracts and live suites', async () => {
  assert.deepEqual(
    others.map((c) => c.market.chainId),
    [4663, 143],
  )
  const { res, body } = await get('/config?include=chains')
  assert.equal(res.status, 200, JSON.stringify(body))
  const described = [devnet, ...others].map((c) => ({ chainId: c.market.chainId, lp: c.market.launchpad! }))
  assert.deepEqual(
    body.data.chains.map((c: Json) => [c.chain_id, c.name, c.native_symbol, c.contracts.launch_factory, c.wrapped_native]),
    [
      [8453, 'Base (embedded devnet)', 'ETH', getAddress(described[0].lp.factory), getAddress(described[0].lp.weth)],
      [4663, 'Robinhood Chain (embedded devnet)', 'ETH', getAddress(described[1].lp.factory), getAddress(described[1].lp.weth)],
      [143, 'Monad (embedded devnet)', 'MON', getAddress(described[2].lp.factory), getAddress(described[2].lp.weth)],
    ],
  )
  // The suites are read live from each chain's own factory.
  const live = await get('/config?market=all')
  assert.equal(live.res.status, 200, JSON.stringify(live.body))
  for (const { chainId, lp } of described)
    assert.deepEqual(
      live.body.data.suites.filter((s: Json) => s.chain_id === chainId).map((s: Json) => s.paired_token.address),
      lp.pairedTokens.map((p) => getAddress(p)),
      String(chainId),
    )
})

test("per-chain lists and pages: each chain's own launches, its trades from its own pool logs", async () => {
  for (const chain of others) {
    const { chainId, launchpad } = chain.market
    const { res, body } = await get(`/tokens?chain=${chainId}&limit=200`)
    assert.equal(res.status, 200, JSON.stringify(body))
    assert.deepEqual(body.data.map((t: Json) => t.address).sort(), launchpad.tokens.map((t) => getAddress(t.address)).sort())
    assert.ok(body.data.every((t: Json) => t.chain_id === chainId))
    const token = launchpad.tokens[0]
    const detail = await get(`/tokens/${chainId}/${token.address}`)
    assert.equal(detail.res.status, 200, JSON.stringify(detail.body))
    assert.deepEqual([detail.body.data.symbol, detail.body.data.pool.address], [token.symbol, getAddress(token.pool)])
    const trades = await get(`/tokens/${chainId}/${token.address}/trades?limit=200`)
    const logs = await chain.publicClient.getLogs({ address: token.pool, event: swapEvent, fromBlock: BigInt(launchpad.fromBlock) })
    assert.equal(trades.body.data.length, logs.length)
    assert.ok(logs.length > 0)
    // The same token on another chain is not there.
    await assertProblem((await get(`/tokens/8453/${token.address}`)).res, 404, 'not_found', gateway.url)
  }
  const all = await get('/tokens?limit=200')
  assert.deepEqual([...new Set(all.body.data.map((t: Json) => t.chain_id))].sort(), [143, 4663, 8453])
})

test('unsupported_chain names the three; a swap on a chain without a swap market is unsupported_operation', async () => {
  const token = chainOf(4663).market.launchpad.tokens[0]
  for (const path of [`/tokens/10143/${token.address}`, '/tokens?chain=46630']) {
    const problem = await assertProblem((await get(path)).res, 422, 'unsupported_chain', gateway.url)
    assert.match(problem.detail, /supported: 8453, 4663, 143\./)
  }
  const lp = chainOf(4663).market.launchpad
  const quote = await fetch(`${gateway.url}/swaps/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      chain_id: 4663,
      wallet: lp.traders[0],
      token_in: lp.weth,
      token_out: token.address,
      amount_in: '1000000000000000',
    }),
  })
  await assertProblem(quote, 422, 'unsupported_operation', gateway.url)
})
