/**
 * The gateway's prepare routes under load, on the embedded chain with the swap service's solver in
 * the same process (as `npm start` runs them): p50/p99 of launch prepare (with its simulation),
 * swap quote, swap prepare and fee-claim prepare at fixed rates, open loop (each request is sent at
 * its due time whatever the earlier ones are doing; latency counts from the due time).
 *
 * The rates respect the safety ceilings of spec §8, which are part of what a caller meets: launch
 * prepare is at most 60 a minute service-wide (so 1/s), a creator once a minute per key, a key 3 a
 * minute; the bench rotates fresh creators, 20 keys and client addresses (`X-Forwarded-For`,
 * trusted here) so the ceilings do not refuse its requests, and counts any answer but 200 apart.
 *
 *   node --import tsx bench/gatewayPrepare.bench.ts [--duration 20] [--out bench/results/gateway-prepare.json]
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { loadConfig } from '../src/config/loadConfig.ts'
import { embeddedGatewayChain } from '../src/gateway/embeddedGatewayChain.ts'
import { SCOPES } from '../src/gateway/auth/scopes.ts'
import { startGateway } from '../src/gateway/startGateway.ts'
import { openDatabase } from '../src/gateway/store/openDatabase.ts'
import { startSwapService } from '../src/startSwapService.ts'
import { fixedRateRequests } from './gateway/fixedRateRequests.ts'

const { values } = parseArgs({ options: { duration: { type: 'string', default: '20' }, out: { type: 'string' } } })
const durationSec = Number(values.duration)

const service = await startSwapService({
  config: loadConfig({ API_KEYS: 'bench-key-0123456789abcdef', MARKET_POLL_INTERVAL_MS: '250', MAX_SNAPSHOT_AGE_MS: '600000' }),
  logger: false,
})
const devnet = service.devnet!
const lp = devnet.market.launchpad!
const db = await openDatabase({ url: ':memory:' })
const gateway = await startGateway({
  db,
  trustProxy: true,
  indexer: { pollIntervalMs: 200 },
  chains: [embeddedGatewayChain({ devnet, swaps: { router: service.deps.quoteService.router, quote: service.deps.quoteService.quote } })],
})
const roomy = { unitsPerMinute: 10_000_000, burstPerSecond: 10_000_000, daily: 100_000_000, monthly: 1_000_000_000, maxPage: 200 }
const keys = await Promise.all(
  Array.from(
    { length: 20 },
    async () => (await gateway.deps.keys.create({ plan: 'partner', customLimits: roomy, scopes: [...SCOPES], owner: 'bench' })).key,
  ),
)
const chainId = devnet.market.chainId
let n = 0
const post = (path: string, body: unknown, extra: Record<string, string> = {}, key = keys[n % keys.length]) => {
  n++
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      ...extra,
    },
  })
}

/** Sends `make(i)` at `rate` per second for the duration, open loop; latencies from each due time. */
async function load(route: string, rate: number, make: (i: number) => Promise<Response>) {
  const row = { route, rate, ...(await fixedRateRequests({ rate, durationSec, make })) }
  console.log(`${route}\t${rate}/s\tp50 ${row.p50_ms} ms\tp99 ${row.p99_ms} ms\t${JSON.stringify(row.statuses)}`)
  return row
}

// Buys with the native asset: the dev accounts hold ETH and need no approval.
const traders = devnet.market.accounts.slice(1, 10).map((a) => a.address)
const token = lp.tokens[0].address
const quoteBody = (wallet: string) => ({
  chain_id: chainId,
  wallet,
  token_in: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
  token_out: token,
  amount_in: '1000000000000000',
})

const rows = []
rows.push(
  await load('launch prepare', 1, () =>
    post(
      '/launches/prepare',
      { chain_id: chainId, creator: privateKeyToAccount(generatePrivateKey()).address, name: 'Bench', symbol: 'BNCH' },
      { 'idempotency-key': generatePrivateKey() },
    ),
  ),
)
rows.push(await load('swap quote', 10, (i) => post('/swaps/quote', quoteBody(traders[i % traders.length]))))
// One quote per prepare, made just before (a quote lives 30 s) with the key that prepares it.
const quoteIds: string[] = []
for (let i = 0; i < Math.round(5 * durationSec); i++)
  quoteIds.push(
    ((await (await post('/swaps/quote', quoteBody(traders[i % traders.length]), {}, keys[0])).json()) as { data: { quote_id: string } })
      .data.quote_id,
  )
rows.push(
  await load('swap prepare', 5, (i) => post('/swaps/prepare', { quote_id: quoteIds[i], wallet: traders[i % traders.length] }, {}, keys[0])),
)
// Fee claims of the seeded creators (a prepare sends nothing, so the positions stay claimable).
const positions = await db.query<{ recipient: string; token: string }>(
  "SELECT recipient, token FROM fee_positions WHERE accrued_token <> '0' OR accrued_paired <> '0' ORDER BY recipient LIMIT 40",
)
rows.push(
  await load('fee claim prepare (1 position)', 1, (i) =>
    post('/claims/fees/prepare', {
      chain_id: chainId,
      wallet: positions[i % positions.length].recipient,
      positions: [{ token: positions[i % positions.length].token }],
    }),
  ),
)

if (values.out)
  writeFileSync(values.out, `${JSON.stringify({ machine: { load: (await import('node:os')).loadavg() }, durationSec, rows }, null, 2)}\n`)
await gateway.close()
await db.close()
await service.fastify.close()
