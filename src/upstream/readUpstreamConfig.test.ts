import assert from 'node:assert/strict'
import { test } from 'vitest'
import { DEFAULT_UPSTREAM_TIME_BUDGET_MS, readUpstreamConfig } from './readUpstreamConfig.ts'

const read = (env: Record<string, string>) => {
  const problems: string[] = []
  return { config: readUpstreamConfig(env, problems), problems }
}

test('nothing set: no upstream (the routes are not served)', () => {
  assert.deepEqual(read({}), { config: { ids: [], demo: false, timeBudgetMs: DEFAULT_UPSTREAM_TIME_BUDGET_MS, settings: {} }, problems: [] })
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
  assert.deepEqual(config.settings['0x'], { baseUrl: 'https://api.0x.org', apiKey: 'zx-key-0123456789', ratePerSec: 4, burst: 5, options: { flow: 'allowance-holder' } })
  assert.deepEqual(config.settings.kyberswap, { baseUrl: 'https://api.kyberswap.com/swap', apiKey: 'kb-key', ratePerSec: 2.4, burst: 3, options: { clientId: 'my-app' } })
  assert.deepEqual(config.settings.odos, { baseUrl: 'https://api.odos.xyz', apiKey: undefined, ratePerSec: 0.5, burst: 2, options: { quoteVersion: 'v2' } })
  assert.equal(config.settings['1inch'], undefined)
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
