import assert from 'node:assert/strict'
import { test } from 'vitest'
import { base } from './base.ts'

test('every Base deployment the discovery follows has a start block, none before the first DEX on Base (scanning from 0 would cost thousands of getLogs ranges)', () => {
  const deployments = Object.entries(base.deployments)
  assert.ok(deployments.length >= 7)
  for (const [dex, deployment] of deployments) {
    assert.equal(typeof deployment?.fromBlock, 'bigint', `${dex} has no start block`)
    assert.ok((deployment?.fromBlock ?? 0n) > 1_000_000n, `${dex}: ${deployment?.fromBlock} is before any DEX on Base`)
  }
})
