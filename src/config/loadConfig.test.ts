import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'vitest'
import { ConfigError, DEFAULT_MAX_FEE_BPS, loadConfig } from './loadConfig.ts'

const sha256 = (key: string) => createHash('sha256').update(key).digest('hex')
const keysFile = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys')
  writeFileSync(file, text)
  return file
}
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env)
  } catch (error) {
    assert.ok(error instanceof ConfigError)
    return error.problems
  }
  return assert.fail('expected a ConfigError')
}

test('defaults: 127.0.0.1:8080, 120/min, 30 s quotes, embedded chain, no keys (a dev key is generated later)', () => {
  const c = loadConfig({})
  assert.deepEqual(
    [c.host, c.port, c.rateLimitPerMinute, c.quoteTtlMs, c.rpcUrl, c.apiKeys.length, c.maxSnapshotAgeMs, c.txDeadlineSec],
    ['127.0.0.1', 8080, 120, 30_000, undefined, 0, 10_000, 300],
  )
  assert.equal(c.maxFeeBps, DEFAULT_MAX_FEE_BPS)
  assert.equal(DEFAULT_MAX_FEE_BPS, 300)
  assert.equal(c.tokenCheckWindowBlocks, 1800, 'an hour of Base blocks for the rebasing check')
  assert.equal(loadConfig({ TOKEN_CHECK_WINDOW_BLOCKS: '0' }).tokenCheckWindowBlocks, 0)
  assert.equal(c.tokenRecheckAfterBlocks, 43_200, 'a day of Base blocks before a verdict is judged again')
  assert.equal(loadConfig({ TOKEN_RECHECK_AFTER_BLOCKS: '600' }).tokenRecheckAfterBlocks, 600)
})

test('keys from API_KEYS and API_KEYS_FILE (comments, blanks), union, held only as digests', () => {
  const file = keysFile('# ops keys\nfile-key-0123456789abcdef\n\n  other-key-0123456789abcdef  \n')
  const c = loadConfig({ API_KEYS: 'env-key-0123456789abcdef, env-key-2-0123456789abcdef', API_KEYS_FILE: file })
  assert.deepEqual(
    c.apiKeys.map((k) => k.sha256),
    ['env-key-0123456789abcdef', 'env-key-2-0123456789abcdef', 'file-key-0123456789abcdef', 'other-key-0123456789abcdef'].map(sha256),
  )
  assert.ok(!JSON.stringify(c).includes('key-0123456789abcdef'), 'no key in the configuration')
})

test('key lines may carry feeRecipient and maxFeeBps; plain lines stay valid; MAX_FEE_BPS is the default cap', () => {
  const recipient = '0x000000000000000000000000000000000000bEEF'
  const file = keysFile(
    [
      'plain-key-0123456789abcdef',
      `partner-a-0123456789abcdef feeRecipient=${recipient.toLowerCase()} maxFeeBps=50   # partner A`,
      'partner-b-0123456789abcdef\tmaxFeeBps=0',
      'same-key-0123456789abcdef',
      'same-key-0123456789abcdef',
    ].join('\n'),
  )
  const c = loadConfig({ API_KEYS_FILE: file, MAX_FEE_BPS: '120', FEE_RECIPIENT: '0x00000000000000000000000000000000000000aa' })
  assert.equal(c.maxFeeBps, 120)
  assert.deepEqual(
    c.apiKeys.map(({ sha256, feeRecipient, maxFeeBps }) => ({ sha256, feeRecipient, maxFeeBps })),
    [
      { sha256: sha256('plain-key-0123456789abcdef'), feeRecipient: undefined, maxFeeBps: undefined },
      { sha256: sha256('partner-a-0123456789abcdef'), feeRecipient: recipient, maxFeeBps: 50 },
      { sha256: sha256('partner-b-0123456789abcdef'), feeRecipient: undefined, maxFeeBps: 0 },
      { sha256: sha256('same-key-0123456789abcdef'), feeRecipient: undefined, maxFeeBps: undefined },
    ],
  )
})

test('a bad key line stops the start naming the line, never printing the key', () => {
  const secret = 'partner-secret-0123456789abcdef'
  const cases: [string, RegExp][] = [
    [`${secret} fee=10`, /^API_KEYS_FILE line 2: unknown setting "fee"/],
    [`${secret} feeRecipient=0x1234`, /^API_KEYS_FILE line 2: feeRecipient: not an address: "0x1234"/],
    [
      `${secret} feeRecipient=0x0000000000000000000000000000000000000000`,
      /^API_KEYS_FILE line 2: feeRecipient: must not be the zero address/,
    ],
    [`${secret} maxFeeBps=10000`, /^API_KEYS_FILE line 2: maxFeeBps: must be an integer in 0\.\.9999/],
    [`${secret} maxFeeBps=-1`, /^API_KEYS_FILE line 2: maxFeeBps: must be an integer/],
    [`${secret} maxFeeBps=1 maxFeeBps=2`, /^API_KEYS_FILE line 2: maxFeeBps is given twice/],
    [`${secret.slice(0, 10)} ${secret.slice(10)}`, /^API_KEYS_FILE line 2: the key is shorter than 16 characters/],
    ['partner-secret-01 6789abcdef', /^API_KEYS_FILE line 2: word 2 is not a name=value setting/],
  ]
  for (const [line, expected] of cases) {
    const problems = problemsOf({ API_KEYS_FILE: keysFile(`# first\n${line}\n`) })
    assert.ok(
      problems.some((p) => expected.test(p)),
      `${line}: ${problems.join(' | ')}`,
    )
    for (const p of problems)
      assert.ok(!p.includes(secret) && !p.includes('6789abcdef') && !p.includes('partner-secret'), `the key leaked: ${p}`)
  }
  const clash = problemsOf({ API_KEYS: secret, API_KEYS_FILE: keysFile(`${secret} maxFeeBps=5\n`) })
  assert.ok(
    clash.some((p) => p === 'API_KEYS_FILE line 1: the same key as API_KEYS entry 1, with other settings'),
    clash.join(' | '),
  )
  assert.ok(problemsOf({ MAX_FEE_BPS: '10000' }).some((p) => p.startsWith('MAX_FEE_BPS: must be an integer in 0..9999')))
  assert.ok(problemsOf({ FEE_RECIPIENT: `0x${'0'.repeat(40)}` }).some((p) => p.startsWith('FEE_RECIPIENT: must not be the zero address')))
  const router = '0x00000000000000000000000000000000000000c1'
  assert.ok(
    problemsOf({ ROUTER_ADDRESS: router, FEE_RECIPIENT: router.toUpperCase().replace('0X', '0x') }).some((p) =>
      p.includes('must not be the router'),
    ),
  )
  assert.ok(
    problemsOf({ ROUTER_ADDRESS: router, API_KEYS_FILE: keysFile(`${secret} feeRecipient=${router}\n`) }).some((p) =>
      p.includes('must not be the router'),
    ),
  )
})

test('config errors name a secret variable without printing its value (RPC_URL keeps its host)', () => {
  const key = 'Zx9kQ2mP7rT4vW8yB3nL6hJ1'
  const problems = problemsOf({
    RPC_URL: `htps://base-mainnet.g.alchemy.com/v2/${key}`,
    QUOTE_SIGNING_KEY: 'short-secret',
    API_KEYS: 'tiny-api-secret',
  })
  const text = problems.join('\n')
  for (const secret of [key, 'short-secret', 'tiny-api-secret']) assert.ok(!text.includes(secret), text)
  for (const name of ['RPC_URL', 'QUOTE_SIGNING_KEY', 'API_KEYS'])
    assert.ok(
      problems.some((p) => p.startsWith(name)),
      `${name} in ${text}`,
    )
  assert.match(text, /RPC_URL: .*htps:\/\/base-mainnet\.g\.alchemy\.com\/\[redacted\]/)
  for (const malformed of [`htps:/base-mainnet.g.alchemy.com/v2/${key}`, `not a url ${key}`]) {
    assert.ok(!problemsOf({ RPC_URL: malformed }).join('\n').includes(key), malformed)
  }
})

test('every bad variable is named, with a clear message', () => {
  const problems = problemsOf
  const p = problems({
    PORT: 'http',
    RATE_LIMIT_PER_MINUTE: '0',
    QUOTE_TTL_MS: '-5',
    SOLVER_BACKEND: 'gpu',
    SOLVER_TIME_BUDGET_MS: '20000',
    ROUTER_ADDRESS: '0x12',
    API_KEYS: 'short',
  })
  for (const name of ['PORT', 'RATE_LIMIT_PER_MINUTE', 'QUOTE_TTL_MS', 'SOLVER_BACKEND', 'SOLVER_TIME_BUDGET_MS', 'ROUTER_ADDRESS'])
    assert.ok(
      p.some((x) => x.startsWith(`${name}:`)),
      `${name} in ${p.join(' | ')}`,
    )
  const real = problems({ RPC_URL: 'https://base.example' })
  assert.ok(real.some((x) => x.startsWith('ROUTER_ADDRESS:')))
  assert.ok(real.some((x) => x.startsWith('API_KEYS')))
  assert.ok(problems({ API_KEYS_FILE: '/nonexistent/keys' }).some((x) => x.startsWith('API_KEYS_FILE:')))
  assert.ok(problems({ API_KEYS: 'short' }).some((x) => x === 'API_KEYS entry 1: the key is shorter than 16 characters'))
  assert.ok(problems({ RPC_URL: 'ftp://x' }).some((x) => x.startsWith('RPC_URL:')))
  assert.ok(problems({ TOKEN_CHECK_WINDOW_BLOCKS: '-1' }).some((x) => x.startsWith('TOKEN_CHECK_WINDOW_BLOCKS:')))
  // 0 would re-judge every token at every step: refused, like a word or a fraction.
  for (const bad of ['0', '-5', '1.5', 'day', '100000001'])
    assert.ok(
      problems({ TOKEN_RECHECK_AFTER_BLOCKS: bad }).some((x) => x.startsWith('TOKEN_RECHECK_AFTER_BLOCKS:')),
      `TOKEN_RECHECK_AFTER_BLOCKS=${bad} refused`,
    )
})

test('upstream variables are checked with the rest: listed without its key, 0x stops the start, naming the variable', () => {
  assert.deepEqual(loadConfig({}).upstreams.ids, [], 'none by default: /quote/compare and /quote/split are not served')
  assert.deepEqual(problemsOf({ UPSTREAMS: '0x', PORT: 'x' }), [
    'PORT: must match pattern "^[0-9]+$" (got "x")',
    'UPSTREAM_ZEROEX_API_KEY: required to use 0x (listed in UPSTREAMS)',
  ])
  assert.deepEqual(loadConfig({ UPSTREAMS: 'kyberswap,odos' }).upstreams.ids, ['kyberswap', 'odos'])
})

test("IPFS_API_URL: a Kubo node's RPC API (unset: the embedded blockstore); no credentials in it; IPFS_TIMEOUT_MS bounded", () => {
  assert.deepEqual([loadConfig({}).ipfsApiUrl, loadConfig({}).ipfsTimeoutMs], [undefined, 10_000])
  const c = loadConfig({ IPFS_API_URL: 'http://127.0.0.1:5001', IPFS_TIMEOUT_MS: '2500' })
  assert.deepEqual([c.ipfsApiUrl, c.ipfsTimeoutMs], ['http://127.0.0.1:5001', 2500])
  const problems = problemsOf({ IPFS_API_URL: 'http://user:secret@kubo:5001', IPFS_TIMEOUT_MS: '5' })
  assert.ok(
    problems.some((p) => p.startsWith('IPFS_API_URL:')),
    problems.join('\n'),
  )
  assert.ok(
    problems.some((p) => p.startsWith('IPFS_TIMEOUT_MS:')),
    problems.join('\n'),
  )
  assert.ok(!problems.join('\n').includes('secret'), 'credentials in a URL are never printed')
})

test("the gateway's fleet settings: trusted proxies, public URL, cursor secret (never printed)", () => {
  const c = loadConfig({
    GATEWAY_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
    GATEWAY_PUBLIC_URL: 'https://api.example.com/gateway',
    GATEWAY_CURSOR_SECRET: 's'.repeat(40),
  })
  assert.deepEqual(
    [c.gatewayTrustProxy, c.gatewayPublicUrl, c.gatewayCursorSecret],
    [['10.0.0.0/8', '127.0.0.1'], 'https://api.example.com/gateway', 's'.repeat(40)],
  )
  assert.equal(loadConfig({}).gatewayTrustProxy, false)
  assert.equal(loadConfig({ GATEWAY_TRUST_PROXY: 'true' }).gatewayTrustProxy, true)
  const problems = problemsOf({
    GATEWAY_TRUST_PROXY: 'proxy.example',
    GATEWAY_PUBLIC_URL: 'https://x.example/',
    GATEWAY_CURSOR_SECRET: 'short-secret',
  })
  assert.equal(problems.length, 3, problems.join('\n'))
  assert.ok(!problems.join('\n').includes('short-secret'), 'the secret is never printed')
})
