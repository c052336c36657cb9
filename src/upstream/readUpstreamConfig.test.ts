import assert from 'node:assert/strict'
import { test } from 'vitest'
import { DEFAULT_UPSTREAM_TIME_BUDGET_MS, readUpstreamConfig } from './readUpstreamConfig.ts'

const read = (env: Record<string, string>) => {
  const problems: string[] = []
  return { config: readUpstreamConfig(env, problems), problems }
}

test('nothing set: no upstream (the routes are not served)', () => {
  assert.deepEqual(read({}), {
    config: { ids: [], demo: false, timeBudgetMs: DEFAULT_UPSTREAM_TIME_BUDGET_MS, settings: {} },
    problems: [],
  })
})

test('UPSTREAMS with keys, overrides and the published tiers as defaults', () => {
  const { config, problems } = read({
    UPSTREAMS: ' 0x, KyberSwap ,odos,0x',
    UPSTREAM_ZEROEX_API_KEY: 'zx-key-0123456789',
    UPSTREAM_KYBERSWAP_URL: 'https://api.kyberswap.com/swap',
    UPSTREAM_KYBERSWAP_API_KEY: 'kb-key',
    UPSTREAM_KYBERSWAP_CLIENT_ID: 'my-app',
    UPSTREAM_ODOS_RPS: '0.5',
    UPSTREAM_ODOS_QUOTE_VERSION: 'v2',
    UPSTREAM_TIME_BUDGET_MS: '800',
    UPSTREAM_ONEINCH_API_KEY: 'not listed: ignored',
  })
  assert.deepEqual(problems, [])
  assert.deepEqual(config.ids, ['0x', 'kyberswap', 'odos'])
  assert.equal(config.timeBudgetMs, 800)
  assert.deepEqual(config.settings['0x'], {
    baseUrl: 'https://api.0x.org',
    apiKey: 'zx-key-0123456789',
    ratePerSec: 4,
    burst: 5,
    options: { flow: 'allowance-holder' },
  })
  assert.deepEqual(config.settings.kyberswap, {
    baseUrl: 'https://api.kyberswap.com/swap',
    apiKey: 'kb-key',
    ratePerSec: 2.4,
    burst: 3,
    options: { clientId: 'my-app' },
  })
  assert.deepEqual(config.settings.odos, {
    baseUrl: 'https://api.odos.xyz',
    apiKey: undefined,
    ratePerSec: 0.5,
    burst: 2,
    options: { quoteVersion: 'v2' },
  })
  assert.equal(config.settings['1inch'], undefined)
})

test('keys go to the host that takes them: Odos keyed to its enterprise host, 1inch v6.1 to api.1inch.com, a KyberSwap key only with its URL', () => {
  const { config, problems } = read({
    UPSTREAMS: 'odos,1inch,kyberswap',
    UPSTREAM_ODOS_API_KEY: 'odos-key',
    UPSTREAM_ONEINCH_API_KEY: 'k',
    UPSTREAM_ONEINCH_VERSION: 'v6.1',
    UPSTREAM_KYBERSWAP_API_KEY: 'kb-key',
  })
  assert.equal(config.settings.odos?.baseUrl, 'https://enterprise-api.odos.xyz')
  assert.equal(config.settings['1inch']?.baseUrl, 'https://api.1inch.com')
  assert.equal(
    read({ UPSTREAMS: '1inch,odos', UPSTREAM_ONEINCH_API_KEY: 'k' }).config.settings['1inch']?.baseUrl,
    'https://api.1inch.dev',
    'v6.0 on api.1inch.dev',
  )
  assert.equal(read({ UPSTREAMS: 'odos' }).config.settings.odos?.baseUrl, 'https://api.odos.xyz', 'no key: the public host')
  assert.equal(
    read({ UPSTREAMS: 'odos', UPSTREAM_ODOS_API_KEY: 'k', UPSTREAM_ODOS_URL: 'https://proxy.example/odos' }).config.settings.odos?.baseUrl,
    'https://proxy.example/odos',
    'a URL set wins',
  )
  assert.equal(problems.length, 1)
  assert.match(problems[0], /^UPSTREAM_KYBERSWAP_API_KEY: its public API takes no key .*UPSTREAM_KYBERSWAP_URL/)
  assert.ok(!problems[0].includes('kb-key'))
})

test('UPSTREAMS_DEMO=1 alone: all six, no key needed', () => {
  const { config, problems } = read({ UPSTREAMS_DEMO: '1' })
  assert.deepEqual(problems, [])
  assert.equal(config.demo, true)
  assert.deepEqual(config.ids, ['0x', '1inch', 'kyberswap', 'odos', 'velora', 'openocean'])
})

test('every bad value is named, and a key is never printed', () => {
  const { problems } = read({
    UPSTREAMS: '0x,1inch,paraswap',
    UPSTREAM_ONEINCH_API_KEY: 'secret-1inch-key-value',
    UPSTREAM_ONEINCH_URL: 'ftp://x',
    UPSTREAM_ONEINCH_RPS: 'fast',
    UPSTREAM_ONEINCH_BURST: '0',
    UPSTREAM_ONEINCH_VERSION: 'v5.0',
    UPSTREAM_TIME_BUDGET_MS: '20',
    UPSTREAMS_DEMO: 'yes',
  })
  assert.deepEqual(problems, [
    'UPSTREAMS_DEMO: must be 1 or 0 (got "yes")',
    'UPSTREAMS: unknown upstream "paraswap" (known: 0x, 1inch, kyberswap, odos, velora, openocean)',
    'UPSTREAM_TIME_BUDGET_MS: must be an integer in 50..10000 (got "20")',
    'UPSTREAM_ZEROEX_API_KEY: required to use 0x (listed in UPSTREAMS)',
    'UPSTREAM_ONEINCH_URL: must be an http(s) URL',
    'UPSTREAM_ONEINCH_RPS: must be a number of requests per second in (0, 10000] (got "fast")',
    'UPSTREAM_ONEINCH_BURST: must be an integer in 1..100000 (got "0")',
    'UPSTREAM_ONEINCH_VERSION: must be one of v6.0, v6.1 (got "v5.0")',
  ])
  assert.ok(!problems.join('\n').includes('secret-1inch-key-value'))
})
