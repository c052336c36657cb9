import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { createPublicClient, http, parseAbi, type PublicClient } from 'viem'
import type { CreateKeyInput } from '../../../src/gateway/auth/createKeyStore.ts'
import type { GatewayChain } from '../../../src/gateway/GatewayChain.ts'
import { createIndexedHolderProvider } from '../../../src/gateway/holders/createIndexedHolderProvider.ts'
import { type HolderProvider, HolderProviderUnavailableError } from '../../../src/gateway/holders/HolderProvider.ts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

// The conventions of spec §§2, 4, 5, 7, 8 and 9 that apply to reads, each tried through HTTP on
// a running gateway over the seeded launchpad (SQLite; the read routes run on both engines in
// readRoutes.test.ts).

/** A holder provider that can be taken down or held (to keep snapshots in flight). */
const holderSwitch = { mode: 'up' as 'up' | 'down' | 'hold', held: [] as (() => void)[] }
const switchedHolders = (inner: HolderProvider): HolderProvider => ({
  page: async (args) => {
    if (holderSwitch.mode === 'down') throw new HolderProviderUnavailableError('taken down by the test')
    if (holderSwitch.mode === 'hold') await new Promise<void>((resolve) => holderSwitch.held.push(resolve))
    return inner.page(args)
  },
})

// Bodies are checked field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 10_000, burstPerSecond: 10_000, daily: 1_000_000, monthly: 10_000_000, maxPage: 200 }
const remaining = (res: Response, policy: string) => {
  const match = new RegExp(`"${policy}";r=(\\d+)`).exec(res.headers.get('ratelimit') ?? '')
  return match ? Number(match[1]) : undefined
}

let bed: GatewayTestbed
let token: string
let creator: string
beforeAll(async () => {
  bed = await startGatewayTestbed({ holders: (db) => switchedHolders(createIndexedHolderProvider({ db })) })
  token = bed.devnet.market.launchpad!.tokens[0].address
  creator = bed.devnet.market.launchpad!.tokens[0].creator
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

const keyWith = async (input: Partial<CreateKeyInput> = {}) => (await bed.key({ plan: 'partner', customLimits: ROOMY, ...input })).key

/** What a request cost: a fresh key with room, the request, then a 1-unit probe (`/config?include=chains`). */
async function costOf(path: string, input: Partial<CreateKeyInput> = {}, init: RequestInit = {}) {
  const limits = input.customLimits ?? ROOMY
  const key = await keyWith({
    ...input,
    scopes: [...(input.scopes ?? ['tokens:read', 'wallets:read', 'holders:read', 'transactions:read']), 'config:read'],
  })
  const res = await bed.get(path, { key, ...init })
  const body = (await res.json()) as Json
  const probe = await bed.get('/config?include=chains', { key })
  assert.equal(probe.status, 200)
  return { res, body, cost: limits.unitsPerMinute - 1 - remaining(probe, 'minute')! }
}

const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)

describe('public routes and preflight (spec §4 rule 4)', () => {
  test('GET /health needs no key and costs nothing; it carries meta.generated_at and no rate-limit headers', async () => {
    const res = await bed.get('/health')
    assert.equal(res.status, 200)
    const body = (await res.json()) as Json
    assert.equal(body.status, 'ok')
    assert.equal(body.chains[0].chain_id, 8453)
    assert.ok(body.meta.generated_at)
    assert.equal(res.headers.get('ratelimit'), null)
    assert.match(res.headers.get('x-request-id')!, /^req_/)
  })

  test('a CORS preflight needs no key, costs nothing and confirms only transport; the real request is checked in full', async () => {
    const key = await keyWith({ allowedOrigins: ['https://app.example'] })
    const before = remaining(await bed.get('/config?include=chains', { key }), 'minute')!
    const pre = await bed.get('/tokens', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    })
    assert.equal(pre.status, 204)
    assert.equal(pre.headers.get('access-control-allow-origin'), 'https://elsewhere.example')
    assert.match(pre.headers.get('access-control-allow-headers')!, /x-api-key/)
    const after = remaining(await bed.get('/config?include=chains', { key }), 'minute')!
    assert.equal(before - after, 1, 'only the second probe was charged')
    await assertProblem(await bed.get('/tokens', { key, headers: { origin: 'https://elsewhere.example' } }), 403, 'origin_not_allowed')
    const allowed = await bed.get('/tokens?limit=1', { key, headers: { origin: 'https://app.example' } })
    assert.equal(allowed.status, 200)
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example')
    assert.match(allowed.headers.get('access-control-expose-headers')!, /ratelimit/)
  })

  test('the problem reference page has a section for every code a problem type links to', async () => {
    const page = await (await bed.get('/problems')).text()
    for (const code of ['missing_api_key', 'cursor_stale', 'upstream_timeout', 'quota_exceeded'])
      assert.ok(page.includes(`id="${code}"`), code)
  })
})

describe('authentication in the order of spec §5.2', () => {
  test('missing_api_key and invalid_api_key (malformed, unknown, revoked, inactive, expired); none costs anything', async () => {
    await assertProblem(await bed.get('/tokens'), 401, 'missing_api_key')
    await assertProblem(await bed.get('/tokens', { key: 'not-a-key' }), 401, 'invalid_api_key')
    await assertProblem(await bed.get('/tokens', { key: 'gw_live_abcdefghijkl_00112233445566778899aabbccddeeff' }), 401, 'invalid_api_key')
    const { key, record } = await bed.key()
    await assertProblem(await bed.get('/tokens', { key: key.slice(0, -1) + (key.endsWith('0') ? '1' : '0') }), 401, 'invalid_api_key')
    const expired = await bed.key({ expiresAt: new Date(Date.now() - 1000).toISOString() })
    const expiredBody = await assertProblem(await bed.get('/tokens', { key: expired.key }), 401, 'invalid_api_key')
    assert.match(expiredBody.detail, /expired/)
    // A status change is seen once the 5 s cache of the key's record lapses (the store's own test checks the clock).
    await bed.gateway.deps.keys.setStatus(record.prefix, 'revoked')
    const inactive = await bed.key()
    await bed.gateway.deps.keys.setStatus(inactive.record.prefix, 'inactive')
    assert.match((await assertProblem(await bed.get('/tokens', { key: inactive.key }), 401, 'invalid_api_key')).detail, /inactive/)
  })

  test('a key whose stored plan is not known is refused on every request (never served unlimited); a gw_test_ key is refused by this live deployment', async () => {
    const odd = await bed.key()
    await bed.db.execute('UPDATE api_keys SET plan = $1 WHERE prefix = $2', ['gold', odd.record.prefix])
    for (let i = 0; i < 3; i++)
      assert.match((await assertProblem(await bed.get('/tokens?limit=1', { key: odd.key }), 401, 'invalid_api_key')).detail, /plan/)
    const partner = await bed.key({ plan: 'partner', customLimits: ROOMY })
    await bed.db.execute('UPDATE api_keys SET custom_limits = $1 WHERE prefix = $2', ['{"unitsPerMinute":10}', partner.record.prefix])
    await assertProblem(await bed.get('/tokens?limit=1', { key: partner.key }), 401, 'invalid_api_key')
    const test = await bed.key({ environment: 'test' })
    assert.match((await assertProblem(await bed.get('/tokens?limit=1', { key: test.key }), 401, 'invalid_api_key')).detail, /test key/)
  })

  test('a missing key wins over every later check; a bad scope over a bad origin and a bad parameter; a bad origin over a bad parameter', async () => {
    await assertProblem(await bed.get('/tokens?limit=abc&limit=2', { headers: { origin: 'https://x.example' } }), 401, 'missing_api_key')
    const noScope = await keyWith({ scopes: ['wallets:read'] })
    const scopeBody = await assertProblem(
      await bed.get('/tokens?limit=abc', { key: noScope, headers: { origin: 'https://x.example' } }),
      403,
      'insufficient_scope',
    )
    assert.match(scopeBody.detail, /tokens:read/)
    const key = await keyWith({ allowedOrigins: ['https://app.example'] })
    await assertProblem(await bed.get('/tokens?limit=abc', { key, headers: { origin: 'https://x.example' } }), 403, 'origin_not_allowed')
    await assertProblem(await bed.get('/tokens?limit=abc', { key }), 400, 'invalid_parameter')
  })
})

describe('request validation (spec §4 rules 2-3, §9.3)', () => {
  test('duplicate_parameter, unknown_parameter and invalid_parameter list the fields; an order next to sort is incompatible_parameters with a suggested endpoint', async () => {
    const key = await keyWith()
    const dup = await assertProblem(await bed.get('/tokens?sort=newest&sort=oldest', { key }), 400, 'duplicate_parameter')
    assert.deepEqual(
      dup.invalid_parameters.map((p: { name: string }) => p.name),
      ['sort'],
    )
    const unknown = await assertProblem(await bed.get('/tokens?colour=blue&size=3', { key }), 400, 'unknown_parameter')
    assert.deepEqual(
      unknown.invalid_parameters.map((p: { name: string }) => p.name),
      ['colour', 'size'],
    )
    const invalid = await assertProblem(await bed.get('/tokens?limit=0&sort=loudest', { key }), 400, 'invalid_parameter')
    assert.deepEqual(invalid.invalid_parameters.map((p: { name: string }) => p.name).sort(), ['limit', 'sort'])
    assert.match(
      invalid.invalid_parameters.find((p: { name: string }) => p.name === 'sort').reason,
      /newest, oldest, trending, liquidity, market_cap, volume_24h/,
    )
    const order = await assertProblem(await bed.get('/tokens?sort=newest&order=desc', { key }), 400, 'incompatible_parameters')
    assert.ok(order.invalid_parameters.some((p: { name: string }) => p.name === 'order'))
    const search = await assertProblem(await bed.get('/tokens?q=otter&sort=newest', { key }), 400, 'incompatible_parameters')
    assert.equal(search.suggested_endpoint, '/tokens/search?q=otter')
    const config = await assertProblem(await bed.get('/config?include=chains&market=all', { key }), 400, 'incompatible_parameters')
    assert.equal(config.suggested_endpoint, '/config?market=all')
    await assertProblem(await bed.get('/tokens/8453/0x1234', { key }), 400, 'invalid_parameter')
  })

  test('not_found for unknown tokens, transactions and paths; unsupported_chain naming the supported ids; the retired claim route suggests its focused route', async () => {
    const key = await keyWith()
    const missing = await assertProblem(await bed.get('/tokens/8453/0x000000000000000000000000000000000000beef', { key }), 404, 'not_found')
    assert.equal(missing.resource, 'token')
    assert.equal(missing.chain_id, 8453)
    await assertProblem(await bed.get(`/transactions/8453/0x${'ab'.repeat(32)}`, { key }), 404, 'not_found')
    await assertProblem(await bed.get('/no/such/route', { key }), 404, 'not_found')
    const chain = await assertProblem(await bed.get(`/tokens/4663/${token}`, { key }), 422, 'unsupported_chain')
    assert.match(chain.detail, /8453/)
    const retired = await assertProblem(
      await bed.get('/claims/prepare', {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'vesting' }),
      }),
      404,
      'not_found',
    )
    assert.equal(retired.suggested_endpoint, '/claims/vesting/prepare')
  })

  test('invalid_request: unreadable JSON (400) and a body too large (413)', async () => {
    const key = await keyWith()
    await assertProblem(
      await bed.get('/claims/prepare', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind":' }),
      400,
      'invalid_request',
    )
    const big = await bed.get('/claims/prepare', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(100_000) }),
    })
    const body = await assertProblem(big, 413, 'invalid_request')
    assert.equal(body.status, 413)
  })
})

describe('weighted units and the accounting rules (spec §8)', () => {
  test('route weights, paging scaled: a token list of 100 costs 8, 200 holders 40, config 1/5/20, trades 3, transaction status 1', async () => {
    assert.equal((await costOf('/tokens?limit=100')).cost, 8)
    assert.equal((await costOf('/tokens')).cost, 2)
    assert.equal((await costOf('/tokens/search?q=a&limit=26')).cost, 4)
    assert.equal((await costOf(`/tokens/8453/${token}`)).cost, 2)
    assert.equal((await costOf(`/tokens/8453/${token}/trades`)).cost, 3)
    assert.equal((await costOf(`/tokens/8453/${token}/announcements?limit=50`)).cost, 4)
    assert.equal((await costOf(`/tokens/8453/${token}/activity?kind=trades&limit=50`)).cost, 6)
    assert.equal((await costOf(`/tokens/8453/${token}/holders?limit=200`)).cost, 40)
    assert.equal((await costOf(`/tokens/8453/${token}/holders`)).cost, 10)
    assert.equal((await costOf(`/wallets/${creator}/fee-claims`)).cost, 3)
    assert.equal((await costOf(`/wallets/${creator}/vesting?limit=100`)).cost, 12)
    // The summary is priced for the rows it reads live: 2 units per 25 (at most 25 of each kind).
    const [rows] = await bed.db.query<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM balances WHERE holder = $1 AND balance <> '0') AS h, (SELECT COUNT(*) FROM fee_positions WHERE recipient = $1) AS f, (SELECT COUNT(*) FROM vesting_positions WHERE beneficiary = $1) AS n`,
      [creator.toLowerCase()],
    )
    const live = ['h', 'f', 'n'].reduce((sum, k) => sum + Math.min(25, Number((rows as Record<string, unknown>)[k])), 0)
    assert.equal((await costOf(`/wallets/${creator}/summary`)).cost, 2 * Math.max(1, Math.ceil(live / 25)))
    assert.equal((await costOf('/wallets/0x000000000000000000000000000000000000dead/summary')).cost, 2)
    assert.equal((await costOf('/config?include=chains')).cost, 1)
    assert.equal((await costOf('/config')).cost, 5)
    assert.equal((await costOf('/config?market=all')).cost, 20)
    const [launch] = await bed.db.query<{ launch_tx: string }>('SELECT launch_tx FROM tokens LIMIT 1')
    assert.equal((await costOf(`/transactions/8453/${launch.launch_tx}`)).cost, 1)
  })

  test('rule 1 and 4: an admitted request costs its weight even when it then fails (not_found, a dependency down)', async () => {
    assert.equal((await costOf('/tokens/8453/0x000000000000000000000000000000000000beef')).cost, 2)
    holderSwitch.mode = 'down'
    try {
      const { res, cost } = await costOf(`/tokens/8453/${token}/holders`)
      assert.equal(res.status, 503)
      assert.equal(cost, 10)
    } finally {
      holderSwitch.mode = 'up'
    }
  })

  test('rule 2: insufficient scope and an oversized page cost the base weight', async () => {
    assert.equal((await costOf('/tokens?limit=100', { scopes: ['wallets:read'] })).cost, 2)
    const over = await costOf('/tokens?limit=101', { customLimits: { ...ROOMY, maxPage: 100 } })
    assert.equal(over.res.status, 400)
    assert.equal(over.body.code, 'invalid_parameter')
    assert.equal(over.cost, 2)
  })

  test('rule 3: missing or invalid keys and requests refused by an exhausted quota cost nothing; rate_limit_exceeded carries Retry-After', async () => {
    const { key } = await bed.key({ plan: 'partner', customLimits: { ...ROOMY, unitsPerMinute: 10 } })
    const first = await bed.get(`/tokens/8453/${token}`, { key })
    assert.equal(remaining(first, 'minute'), 8)
    for (let i = 0; i < 4; i++) assert.equal((await bed.get(`/tokens/8453/${token}`, { key })).status, 200)
    const refused = await bed.get(`/tokens/8453/${token}`, { key })
    const body = await assertProblem(refused, 429, 'rate_limit_exceeded')
    assert.deepEqual(body.violated_policies, ['minute'])
    assert.ok(Number(refused.headers.get('retry-after')) >= 1)
    assert.equal(remaining(refused, 'minute'), 0)
    const again = await bed.get(`/tokens/8453/${token}`, { key })
    assert.equal(again.status, 429)
    assert.equal(remaining(again, 'day'), remaining(first, 'day')! - 8, 'the refused requests took nothing from the day')
  })

  test('rate_limit_exceeded (the plan) vs quota_exceeded (a ceiling): two holder snapshots in flight per key', async () => {
    const key = await keyWith()
    holderSwitch.mode = 'hold'
    try {
      const inFlight = [bed.get(`/tokens/8453/${token}/holders`, { key }), bed.get(`/tokens/8453/${token}/holders`, { key })]
      while (holderSwitch.held.length < 2) await new Promise((r) => setTimeout(r, 20))
      const third = await assertProblem(await bed.get(`/tokens/8453/${token}/holders`, { key }), 429, 'quota_exceeded')
      assert.ok(third.violated_policies.includes('holder_snapshots_in_flight_per_key'))
      holderSwitch.mode = 'up'
      for (const release of holderSwitch.held.splice(0)) release()
      for (const res of await Promise.all(inFlight)) assert.equal(res.status, 200)
      assert.equal((await bed.get(`/tokens/8453/${token}/holders`, { key })).status, 200, 'the leases were released')
    } finally {
      holderSwitch.mode = 'up'
      for (const release of holderSwitch.held.splice(0)) release()
    }
  })

  test('limits are exact under 100-way concurrency: 100 requests of 2 units on a 50-unit minute admit exactly 25', async () => {
    const { key } = await bed.key({ plan: 'partner', customLimits: { ...ROOMY, unitsPerMinute: 50 } })
    const answers = await Promise.all(Array.from({ length: 100 }, () => bed.get(`/tokens/8453/${token}`, { key })))
    const statuses = answers.map((r) => r.status)
    assert.equal(statuses.filter((s) => s === 200).length, 25)
    assert.equal(statuses.filter((s) => s === 429).length, 75)
    await Promise.all(answers.map((r) => r.arrayBuffer()))
  })

  test('headers: RateLimit-Policy lists the plan policies, RateLimit where each stands, X-RateLimit-* the tightest, X-Request-Id always', async () => {
    const { key } = await bed.key({ plan: 'playground' })
    const res = await bed.get('/tokens?limit=50', { key })
    assert.equal(res.status, 200)
    assert.equal(
      res.headers.get('ratelimit-policy'),
      '"burst";q=20;w=1, "minute";q=60;w=60, "day";q=2500;w=86400, "month";q=50000;w=2592000',
    )
    assert.match(res.headers.get('ratelimit')!, /^"burst";r=16;t=\d+, "minute";r=56;t=60, "day";r=2496;t=\d+, "month";r=49996;t=\d+$/)
    assert.equal(res.headers.get('x-ratelimit-limit'), '20')
    assert.equal(res.headers.get('x-ratelimit-remaining'), '16')
    assert.match(res.headers.get('x-request-id')!, /^req_[0-9a-z]{26}$/)
    assert.equal(res.headers.get('cache-control'), 'no-store')
    const over = await assertProblem(await bed.get('/tokens?limit=51', { key }), 400, 'invalid_parameter')
    assert.match(over.detail, /50/)
  })

  test('usage is summarised hourly and daily (rule 5)', async () => {
    const { key, record } = await bed.key()
    await bed.get('/tokens?limit=50', { key })
    await bed.gateway.deps.usage.flush()
    const [daily] = await bed.db.query<{ units: number; requests: number }>(
      'SELECT units, requests FROM usage_daily WHERE key_prefix = $1',
      [record.prefix],
    )
    const [hourly] = await bed.db.query<{ units: number }>('SELECT units FROM usage_hourly WHERE key_prefix = $1', [record.prefix])
    assert.deepEqual([Number(daily.units), Number(daily.requests), Number(hourly.units)], [4, 1, 4])
  })
})

describe('deprecated combined forms (spec §9)', () => {
  const deprecated = async (path: string, focused: string, successor: string) => {
    const key = await keyWith()
    const old = await bed.get(path, { key })
    assert.equal(old.status, 200, path)
    assert.equal(old.headers.get('deprecation'), '@1793491200')
    const link = old.headers.get('link')!
    assert.ok(link.includes(`<${bed.gateway.url}/docs/migration>; rel="deprecation"`), link)
    assert.ok(link.includes(`<${successor}>; rel="successor-version"`), link)
    const now = await bed.get(focused, { key })
    assert.equal(now.headers.get('deprecation'), null)
    const [a, b] = [(await old.json()) as Json, (await now.json()) as Json]
    assert.deepEqual(
      a.data.map((x: object) => JSON.stringify(x)).slice(0, 5),
      b.data.map((x: object) => JSON.stringify(x)).slice(0, 5),
      path,
    )
  }
  test('GET /tokens?q= and ?creator= answer as their focused routes, with Deprecation and Link', async () => {
    await deprecated('/tokens?q=otter', '/tokens/search?q=otter', '/tokens/search?q=otter')
    await deprecated(`/tokens?creator=${creator}`, `/creators/${creator}/tokens`, `/creators/${creator}/tokens`)
  })
  test('activity?kind= and claims?kind= answer as /trades, /announcements, /fee-claims and /vesting', async () => {
    await deprecated(`/tokens/8453/${token}/activity?kind=trades`, `/tokens/8453/${token}/trades`, `/tokens/8453/${token}/trades`)
    await deprecated(
      `/tokens/8453/${token}/activity?kind=announcements`,
      `/tokens/8453/${token}/announcements`,
      `/tokens/8453/${token}/announcements`,
    )
    await deprecated(`/wallets/${creator}/claims?kind=fee`, `/wallets/${creator}/fee-claims`, `/wallets/${creator}/fee-claims`)
    await deprecated(`/wallets/${creator}/claims?kind=vesting`, `/wallets/${creator}/vesting`, `/wallets/${creator}/vesting`)
  })
})

describe('cursors (spec §3)', () => {
  test('paging the whole token list visits every token once, in order', async () => {
    const key = await keyWith()
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: Response = await bed.get(`/tokens?sort=market_cap&limit=7${cursor ? `&cursor=${cursor}` : ''}`, { key })
      const body = (await res.json()) as Json
      assert.equal(res.status, 200, JSON.stringify(body))
      seen.push(...body.data.map((t: { address: string }) => t.address))
      cursor = body.page.next_cursor
    } while (cursor)
    const [{ n }] = await bed.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM tokens')
    assert.equal(seen.length, Number(n))
    assert.equal(new Set(seen).size, seen.length)
  })

  test('a cursor on another route or with other filters is cursor_filter_mismatch; an altered one invalid_parameter', async () => {
    const key = await keyWith()
    const { page } = (await (await bed.get('/tokens?sort=newest&limit=2', { key })).json()) as Json
    await assertProblem(await bed.get(`/tokens?sort=oldest&limit=2&cursor=${page.next_cursor}`, { key }), 409, 'cursor_filter_mismatch')
    await assertProblem(await bed.get(`/tokens/search?q=a&cursor=${page.next_cursor}`, { key }), 409, 'cursor_filter_mismatch')
    await assertProblem(
      await bed.get(`/tokens/8453/${token}/activity?kind=trades&cursor=${page.next_cursor}`, { key }),
      409,
      'cursor_filter_mismatch',
    )
    const [payload, tag] = page.next_cursor.split('.')
    const altered = `${payload.slice(0, -2)}${payload.endsWith('A') ? 'B' : 'A'}${payload.slice(-1)}.${tag}`
    await assertProblem(await bed.get(`/tokens?sort=newest&limit=2&cursor=${altered}`, { key }), 400, 'invalid_parameter')
    // The page size is not a filter: the next page may be of another size.
    assert.equal((await bed.get(`/tokens?sort=newest&limit=5&cursor=${page.next_cursor}`, { key })).status, 200)
  })

  test('a holder cursor is cursor_stale once a balance of the token changed; a new first page works', async () => {
    const key = await keyWith()
    const first = (await (await bed.get(`/tokens/8453/${token}/holders?limit=2`, { key })).json()) as Json
    const holder = first.data.find((h: { label: string | null }) => h.label === null)?.address ?? first.data[1].address
    // A real transfer on the chain, then the indexer catches up.
    const [row] = await bed.db.query<{ holders_block: number }>('SELECT holders_block FROM tokens WHERE address = $1', [
      token.toLowerCase(),
    ])
    const receiver = bed.devnet.market.launchpad!.traders.at(-1)!
    const { rows } = {
      rows: await bed.db.query<{ holder: string; balance: string }>(
        "SELECT holder, balance FROM balances WHERE token = $1 AND balance <> '0' AND holder = $2",
        [token.toLowerCase(), receiver.toLowerCase()],
      ),
    }
    const sender = rows.length ? receiver : holder
    await bed.devnet.testClient.impersonateAccount({ address: sender })
    await bed.devnet.testClient.setBalance({ address: sender, value: 10n ** 18n })
    await writeContractAndWait({
      devnet: bed.devnet,
      address: token as `0x${string}`,
      abi: parseAbi(['function transfer(address,uint256) returns (bool)']),
      functionName: 'transfer',
      args: [sender === receiver ? creator : receiver, 1n],
      from: sender,
    })
    await bed.gateway.indexers[0].catchUp()
    const [after] = await bed.db.query<{ holders_block: number }>('SELECT holders_block FROM tokens WHERE address = $1', [
      token.toLowerCase(),
    ])
    assert.ok(after.holders_block > row.holders_block)
    await assertProblem(
      await bed.get(`/tokens/8453/${token}/holders?limit=2&cursor=${first.page.next_cursor}`, { key }),
      409,
      'cursor_stale',
    )
    assert.equal((await bed.get(`/tokens/8453/${token}/holders?limit=2`, { key })).status, 200)
  })
})

describe('a ranked order that changes (spec §3, §8.3)', () => {
  test('a trending cursor is cursor_stale once a refresh re-ordered trending; other sorts keep theirs', async () => {
    const key = await keyWith()
    const trending = (await (await bed.get('/tokens?sort=trending&limit=3', { key })).json()) as Json
    const newest = (await (await bed.get('/tokens?sort=newest&limit=3', { key })).json()) as Json
    const version = async () =>
      Number((await bed.db.query<{ version: number }>("SELECT version FROM rankings WHERE sort = 'trending'"))[0].version)
    const before = await version()
    // Two days of chain time pass: every seeded trade leaves the 24 h window, so the indexer's
    // ranking refresh (run by catchUp) re-orders trending.
    const latest = await bed.devnet.publicClient.getBlock({ blockTag: 'latest' })
    await bed.devnet.testClient.setNextBlockTimestamp({ timestamp: latest.timestamp + 2n * 86_400n })
    await bed.devnet.testClient.mine({ blocks: 1 })
    await bed.gateway.indexers[0].catchUp()
    assert.ok((await version()) > before)
    await assertProblem(await bed.get(`/tokens?sort=trending&limit=3&cursor=${trending.page.next_cursor}`, { key }), 409, 'cursor_stale')
    assert.equal((await bed.get(`/tokens?sort=newest&limit=3&cursor=${newest.page.next_cursor}`, { key })).status, 200)
    const fresh = (await (await bed.get('/tokens?sort=trending&limit=3', { key })).json()) as Json
    assert.ok(fresh.data.every((t: Json) => t.market.trending_score === 0))
  })
})

describe('an unexpected fault (spec §7 internal_error)', () => {
  test('500 internal_error with a fixed detail: the cause is logged, never sent', async () => {
    const key = await keyWith()
    assert.equal((await bed.get('/tokens?limit=1', { key })).status, 200)
    const deps = bed.gateway.deps as { db: typeof bed.db }
    const real = deps.db
    deps.db = {
      ...real,
      query: async () => {
        throw new Error('relation "tokens" exploded at /srv/secret/path')
      },
    }
    try {
      const res = await bed.get('/tokens?limit=1', { key })
      const text = await res.clone().text()
      const body = await assertProblem(res, 500, 'internal_error')
      assert.equal(body.detail, 'The gateway failed to answer this request.')
      assert.ok(!text.includes('exploded') && !text.includes('/srv/secret'), text)
    } finally {
      deps.db = real
    }
  })
})

describe('freshness: a required dependency down gives its mapped error, never an older snapshot (spec §7, §8)', () => {
  const servers: (Server | TcpServer)[] = []
  afterAll(() => {
    for (const s of servers) s.close()
  })
  const withChainAt = async (url: string, run: () => Promise<void>) => {
    const chains = bed.gateway.deps.chains as Map<number, GatewayChain>
    const real = chains.get(8453)!
    chains.set(8453, { ...real, client: createPublicClient({ transport: http(url, { retryCount: 0 }) }) as unknown as PublicClient })
    try {
      await run()
    } finally {
      chains.set(8453, real)
    }
  }
  const listen = async (server: Server | TcpServer) => {
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`
  }

  test('the holder provider down: temporarily_unavailable with Retry-After', async () => {
    const key = await keyWith()
    holderSwitch.mode = 'down'
    try {
      const res = await bed.get(`/tokens/8453/${token}/holders`, { key })
      assert.ok(Number(res.headers.get('retry-after')) >= 1)
      const body = await assertProblem(res, 503, 'temporarily_unavailable')
      assert.equal(body.data, undefined)
    } finally {
      holderSwitch.mode = 'up'
    }
  })

  test('the chain unreachable: temporarily_unavailable; silent: upstream_timeout; answering an RPC error: upstream_error; no URL or provider text leaks', async () => {
    const key = await keyWith()
    const silent = await listen(createTcpServer(() => {}))
    const failing = await listen(
      createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"provider secret detail"}}'),
      ),
    )
    const timeout = bed.gateway.deps.liveReadTimeoutMs
    ;(bed.gateway.deps as { liveReadTimeoutMs: number }).liveReadTimeoutMs = 500
    try {
      for (const [url, status, code] of [
        ['http://127.0.0.1:1', 503, 'temporarily_unavailable'],
        [silent, 504, 'upstream_timeout'],
        [failing, 502, 'upstream_error'],
      ] as const) {
        await withChainAt(url, async () => {
          for (const path of [`/wallets/${creator}/fee-claims`, `/wallets/${creator}/vesting`, `/wallets/${creator}/summary`, '/config']) {
            const res = await bed.get(path, { key })
            const text = await res.clone().text()
            await assertProblem(res, status, code)
            assert.ok(!text.includes(url) && !text.includes('secret') && !text.includes('    at '), text)
          }
        })
      }
    } finally {
      ;(bed.gateway.deps as { liveReadTimeoutMs: number }).liveReadTimeoutMs = timeout
    }
  })
})

// Last: it spends this source's live-configuration ceiling for the minute.
describe('the live-configuration ceiling (spec §8)', () => {
  test('live configuration: 15 per source per minute, then quota_exceeded; include=chains is not live and not counted', async () => {
    // Every earlier /config of this file came from this source too: count what is left.
    const key = await keyWith()
    let admitted = 0
    let refused: Response | undefined
    for (let i = 0; i < 16 && !refused; i++) {
      const res = await bed.get('/config', { key })
      if (res.status === 200) admitted++
      else refused = res
    }
    assert.ok(refused, 'the ceiling refused within 16 live reads')
    const body = await assertProblem(refused!, 429, 'quota_exceeded')
    assert.ok(body.violated_policies.includes('live_config_per_source'))
    assert.ok(admitted <= 15)
    assert.equal((await bed.get('/config?include=chains', { key })).status, 200)
  })
})

// Last too: it spends this source's uncached key lookups for the minute.
describe('the uncached key-lookup ceiling (spec §8)', () => {
  test('60 lookups of uncached key prefixes per source per minute, then quota_exceeded; a cached key still passes', async () => {
    const key = await keyWith()
    assert.equal((await bed.get('/config?include=chains', { key })).status, 200)
    let refused: Response | undefined
    let attempts = 0
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
    while (!refused && attempts < 61) {
      const prefix = [...randomBytes(12)].map((b) => alphabet[b & 31]).join('')
      const res = await bed.get('/config?include=chains', { key: `gw_live_${prefix}_00112233445566778899aabbccddeeff` })
      attempts++
      if (res.status === 429) refused = res
      else assert.equal(res.status, 401)
    }
    assert.ok(refused, 'refused within 61 lookups')
    const body = await assertProblem(refused!, 429, 'quota_exceeded')
    assert.deepEqual(body.violated_policies, ['key_lookups'])
    assert.equal((await bed.get('/config?include=chains', { key })).status, 200)
  })
})
