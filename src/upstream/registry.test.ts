import assert from 'node:assert/strict'
import { test } from 'vitest'
import { upstreamIds, upstreamRegistry } from './registry.ts'
import { standInApis } from './standIns/standInApis.ts'

test('every upstream has its adapter and its stand-in, under its own id; names and defaults are consistent', () => {
  assert.deepEqual(upstreamIds, ['0x', '1inch', 'kyberswap', 'odos', 'velora', 'openocean'])
  assert.deepEqual(Object.keys(standInApis).sort(), [...upstreamIds].sort(), 'a stand-in for each (and no other)')
  const envNames = new Set<string>()
  for (const id of upstreamIds) {
    const kind = upstreamRegistry[id]
    assert.equal(kind.adapter.id, id)
    assert.equal(standInApis[id].id, id)
    assert.match(kind.envName, /^[A-Z0-9]+$/)
    assert.ok(!envNames.has(kind.envName), `${kind.envName} is used twice`)
    envNames.add(kind.envName)
    assert.match(kind.baseUrl, /^https:\/\//)
    assert.ok(kind.ratePerSec > 0 && kind.burst >= 1 && kind.rateSource.length > 0)
    assert.ok(kind.adapter.executableCalls >= 1)
    for (const [name, spec] of Object.entries(kind.options)) {
      assert.match(spec.env, /^[A-Z_]+$/, `${id}.${name}`)
      if (spec.values) assert.ok(spec.values.includes(spec.default), `${id}.${name}: its default is one of its values`)
    }
  }
})

test('the two APIs that require a key are the ones marked so', () => {
  assert.deepEqual(
    upstreamIds.filter((id) => upstreamRegistry[id].requiresApiKey),
    ['0x', '1inch'],
  )
})
