import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { describePlanPools } from '../../bench/soak/describePlanPools.ts'
import { runBackToBackSoak } from '../../bench/soak/runBackToBackSoak.ts'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'

// A plan's blockNumber is a promise (docs/quote.md): the plan is exact on the state at that block,
// for execution in the next one. The back-to-back soak (bench/soak/, `npm run soak`) in a bounded
// form: the running service, its own poller at its default interval, no in-process refresh; random
// trades over every token and every kind on the market, dust to $3M, native in and out, fees and
// splits, one after another, each quoted until its plan names the chain's head and mined in the
// block after it. Every trade must pay exactly expectedAmountOut; a trade that does not is printed
// with its pools as the solver priced them beside the chain's state at the plan's block.

const TRADES = Number(process.env.SOAK_TRADES ?? 150)
const SEED = Number(process.env.SOAK_SEED ?? 4711)
const KEY = 'soak-test-key-0123456789abcdef'

let service: SwapService
let url: string

beforeAll(async () => {
  // The service's own defaults (poll interval, snapshot age), with a key and a limit for a busy client.
  const config = loadConfig({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'silent' })
  service = await startSwapService({ config, logger: false })
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
    assert.equal(counts.exact, TRADES)
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
  })
  assert.equal(lines.length, poolIds.length)
  for (const line of lines) assert.match(line, /equal to the chain's at the plan's block/)
  // A block before every kept version of a pool the soak moved, an unknown pool, a malformed id.
  assert.equal((await get(`/market/pools/${poolIds[0]}?blockNumber=1`)).status, 404)
  assert.equal((await get(`/market/pools/0x${'12'.repeat(20)}`)).status, 404)
  const bad = await get('/market/pools/0x1234')
  assert.equal(bad.status, 400)
  assert.match(bad.json.error, /poolId/)
  assert.equal((await fetch(`${url}/market/pools/${poolIds[0]}`)).status, 401)
})
