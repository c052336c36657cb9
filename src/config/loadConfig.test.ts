import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { ConfigError, loadConfig } from './loadConfig.ts'

test('defaults: 127.0.0.1:8080, 120/min, 30 s quotes, embedded chain, no keys (a dev key is generated later)', () => {
  const c = loadConfig({})
  assert.deepEqual([c.host, c.port, c.rateLimitPerMinute, c.quoteTtlMs, c.rpcUrl, c.apiKeys.length, c.maxSnapshotAgeMs, c.txDeadlineSec], ['127.0.0.1', 8080, 120, 30_000, undefined, 0, 10_000, 300])
})

test('keys from API_KEYS and API_KEYS_FILE (comments, blanks), union', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'))
  const file = join(dir, 'keys')
  writeFileSync(file, '# ops keys\nfile-key-0123456789abcdef\n\n  other-key-0123456789abcdef  \n')
  const c = loadConfig({ API_KEYS: 'env-key-0123456789abcdef, env-key-2-0123456789abcdef', API_KEYS_FILE: file })
  assert.deepEqual(c.apiKeys, ['env-key-0123456789abcdef', 'env-key-2-0123456789abcdef', 'file-key-0123456789abcdef', 'other-key-0123456789abcdef'])
})

test('every bad variable is named, with a clear message', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env)
    } catch (error) {
      assert.ok(error instanceof ConfigError)
      return error.problems
    }
    assert.fail('expected a ConfigError')
  }
  const p = problems({ PORT: 'http', RATE_LIMIT_PER_MINUTE: '0', QUOTE_TTL_MS: '-5', SOLVER_BACKEND: 'gpu', SOLVER_TIME_BUDGET_MS: '20000', ROUTER_ADDRESS: '0x12', API_KEYS: 'short' })
  for (const name of ['PORT', 'RATE_LIMIT_PER_MINUTE', 'QUOTE_TTL_MS', 'SOLVER_BACKEND', 'SOLVER_TIME_BUDGET_MS', 'ROUTER_ADDRESS']) assert.ok(p.some((x) => x.startsWith(`${name}:`)), `${name} in ${p.join(' | ')}`)
  const real = problems({ RPC_URL: 'https://base.example' })
  assert.ok(real.some((x) => x.startsWith('ROUTER_ADDRESS:')))
  assert.ok(real.some((x) => x.startsWith('API_KEYS')))
  assert.ok(problems({ API_KEYS_FILE: '/nonexistent/keys' }).some((x) => x.startsWith('API_KEYS_FILE:')))
  assert.ok(problems({ API_KEYS: 'short' }).some((x) => x.includes('at least 16')))
  assert.ok(problems({ RPC_URL: 'ftp://x' }).some((x) => x.startsWith('RPC_URL:')))
})
