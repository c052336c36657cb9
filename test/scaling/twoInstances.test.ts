import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, test } from 'vitest'
import { parseEther } from 'viem'
import { devnetChainConfig, type DevnetFile } from '../../src/chains/devnetChainConfig.ts'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { type SeededDevnet, startSeededDevnet } from '../../src/devnet/startSeededDevnet.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'
import { type RedisServer, startRedisServer } from '../fixtures/startRedisServer.ts'
import { deploymentsFile } from '../../src/chains/chainDeployments.ts'

// Many instances on one Redis (issue 11): two services on their own ports, one chain, one real
// redis-server (Debian's, AOF fsynced every second). A quote made on A is submitted on B; 200
// concurrent hits spread over both admit exactly the limit; Redis restarted loses no quote; while
// it is down every authenticated call is a 503, never served unlimited.

const KEY = 'shared-key-a-0123456789abcdef'
const OTHER = 'shared-key-b-0123456789abcdef'
const LIMITED = 'shared-key-c-0123456789abcdef'
const LIMIT = 120
let dir: string
let chain: SeededDevnet
let redis: RedisServer
const instances: { service: SwapService; url: string }[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'two-instances-'))
  redis = await startRedisServer()
  chain = await startSeededDevnet({ descriptionPath: join(dir, 'seeded.json') })
  const embedded = devnetChainConfig({ file: chain.market as unknown as DevnetFile })
  writeFileSync(
    join(dir, 'chain.json'),
    JSON.stringify({
      name: 'shared',
      chainId: embedded.chainId,
      weth: embedded.weth,
      multicall3: embedded.multicall3,
      deployments: deploymentsFile(embedded.deployments, 0),
    }),
  )
  for (const name of ['a', 'b']) {
    const config = loadConfig({
      RPC_URL: chain.anvil.url,
      ROUTER_ADDRESS: chain.market.router,
      CHAIN_CONFIG: join(dir, 'chain.json'),
      MARKET_DB_PATH: join(dir, `market-${name}.sqlite`),
      API_KEYS: `${KEY},${OTHER},${LIMITED}`,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      MIN_POOL_LIQUIDITY_WEI: '0',
      MAX_SNAPSHOT_AGE_MS: '600000',
    })
    const service = await startSwapService({ config, logger: false, onDiscoveryProgress: () => {} })
    await service.fastify.listen({ host: '127.0.0.1', port: 0 })
    const address = service.fastify.server.address()
    assert.ok(address && typeof address === 'object')
    instances.push({ service, url: `http://127.0.0.1:${address.port}` })
  }
}, 600_000)

afterAll(async () => {
  for (const { service } of instances) await service.fastify.close()
  await chain?.stop()
  await redis?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const call = async (instance: number, path: string, body: unknown, key = KEY) => {
  const res = await fetch(`${instances[instance].url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}
const quoteRequest = () => ({
  chainId: 8453,
  tokenIn: chain.market.tokens.WETH.address,
  tokenOut: chain.market.tokens.USDC.address,
  amountIn: parseEther('1').toString(),
  slippageBps: 50,
})
const USER = '0x000000000000000000000000000000000000bEEF'

test('a quote made on instance A is submitted on instance B, with its expiry and its owner', async () => {
  const quoted = await call(0, '/quote', quoteRequest())
  assert.equal(quoted.status, 200, JSON.stringify(quoted.json))
  const onB = await call(1, '/submit', { quoteId: quoted.json.quoteId, user: USER })
  assert.equal(onB.status, 200, JSON.stringify(onB.json))
  const onA = await call(0, '/submit', { quoteId: quoted.json.quoteId, user: USER })
  assert.equal(onB.json.data.slice(0, 10), onA.json.data.slice(0, 10))
  assert.equal(onB.json.to, onA.json.to)
  assert.equal(onB.json.value, onA.json.value)
  assert.equal((await call(1, '/submit', { quoteId: quoted.json.quoteId, user: USER }, OTHER)).status, 404, 'another key cannot submit it')
  // An id one character off (never the quote's own: an id ending in 0 gets a 1).
  const id: string = quoted.json.quoteId
  const unknown = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`
  assert.equal((await call(1, '/submit', { quoteId: unknown, user: USER })).status, 404)
})

test(`200 concurrent hits spread over both instances admit exactly the limit (${LIMIT})`, async () => {
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => call(i % 2, '/submit', { quoteId: 'no-such-quote', user: USER }, LIMITED)),
  )
  const admitted = answers.filter((a) => a.status === 404).length
  const limited = answers.filter((a) => a.status === 429)
  assert.equal(admitted, LIMIT)
  assert.equal(limited.length, 200 - LIMIT)
  assert.deepEqual(limited[0].json, { error: 'rate limit exceeded', limit: LIMIT, windowSec: 60 })
})

test('Redis restarted mid-test loses no quote that should survive; while it is down, calls are refused with 503, not served unlimited', async () => {
  const quoted = await call(0, '/quote', quoteRequest())
  assert.equal(quoted.status, 200)
  await redis.stop()
  for (const instance of [0, 1]) {
    const refused = await call(instance, '/quote', quoteRequest())
    assert.equal(refused.status, 503)
    assert.match(refused.json.error, /shared state unavailable/)
    assert.equal((await call(instance, '/submit', { quoteId: quoted.json.quoteId, user: USER })).status, 503)
    const ready = await fetch(`${instances[instance].url}/ready`)
    const report = (await ready.json()) as any
    assert.equal(ready.status, 503, 'the load balancer is told: this instance cannot serve')
    assert.deepEqual(report.notReady, ['redisDisconnected'])
    assert.deepEqual(report.redis, { connected: false })
  }
  await redis.start()
  let submitted: { status: number; json: any } | undefined
  for (let i = 0; i < 100; i++) {
    submitted = await call(1, '/submit', { quoteId: quoted.json.quoteId, user: USER })
    if (submitted.status !== 503) break
    await sleep(100)
  }
  assert.equal(submitted?.status, 200, 'the quote survived the restart (append-only file) and B reconnected')
  assert.equal(submitted?.json.quoteId, quoted.json.quoteId)
  const ready = await fetch(`${instances[1].url}/ready`)
  assert.equal(ready.status, 200)
  const report = (await ready.json()) as any
  assert.deepEqual(report.redis, { connected: true })
  assert.deepEqual(report.rpc, { nodes: [{ index: 0, circuit: 'closed', retryInMs: 0 }] })
})

test('GET /metrics on its own port (METRICS_PORT), not on the public API: request counts and latency by route and status, solve time, the market, rate-limit rejections; no key or URL in it', async () => {
  assert.equal((await fetch(`${instances[0].url}/metrics`, { headers: { 'x-api-key': KEY } })).status, 404, 'not on the public API')
  assert.equal((await fetch(`${instances[0].url}/metrics`)).status, 401, 'an unknown path of the public API: the key first')
  const metricsUrl = await instances[0].service.metricsServer.listen({ host: '127.0.0.1', port: 0 })
  assert.equal((await fetch(metricsUrl.replace('/metrics', '/quote'))).status, 404, 'the metrics port serves /metrics only')
  const res = await fetch(metricsUrl)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /text\/plain/)
  const text = await res.text()
  assert.match(text, /swap_http_requests_total\{route="\/quote",method="POST",status="200"\} [1-9]/)
  assert.match(text, /swap_http_request_duration_seconds_bucket\{le="0\.005",route="\/submit",method="POST",status="404"\}/)
  assert.match(text, /swap_solve_duration_seconds_count\{outcome="ok"\} [1-9]/)
  assert.match(text, /swap_market_block_number [1-9]/)
  assert.match(text, /swap_market_pools_in_solver [1-9]/)
  assert.match(text, /swap_rate_limit_rejections_total [1-9]/)
  assert.match(text, /swap_solves_in_flight 0/)
  // RPC calls and latency per node (its index, never the URL) and method; Redis errors (the restart above).
  assert.match(text, /swap_rpc_calls_total\{node="0",method="eth_getBlockByNumber"\} [1-9]/)
  assert.match(text, /swap_rpc_call_duration_seconds_bucket\{le="10",node="0",method="eth_getBlockByNumber"\} [1-9]/)
  assert.match(text, /swap_redis_errors_total\{kind="commandFailed"\} [1-9]/)
  for (const secret of [KEY, OTHER, LIMITED, chain.anvil.url, redis.url]) assert.ok(!text.includes(secret))
})
