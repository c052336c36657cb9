import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from './config/loadConfig.ts'
import { startSwapService } from './startSwapService.ts'

const ROUTER = '0xabcdef1111111111111111111111111111111111'

test('a FEE_RECIPIENT equal to the router (any letter case) is refused at start with a ConfigError naming it, before any chain call', async () => {
  // Port 1 refuses connections: reaching the chain would fail differently (and slowly).
  const config = loadConfig({ RPC_URL: 'http://127.0.0.1:1', ROUTER_ADDRESS: ROUTER, FEE_RECIPIENT: ROUTER.toUpperCase().replace('0X', '0x'), API_KEYS: 'k'.repeat(16) })
  await assert.rejects(startSwapService({ config }), (e: unknown) =>
    e instanceof ConfigError && e.problems.length === 1 && e.problems[0].startsWith('FEE_RECIPIENT: must not be the router'))
})
