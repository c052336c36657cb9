import assert from 'node:assert/strict'
import { test } from 'vitest'
import { testSettings } from '../../test/fixtures/upstreams/recordedRequester.ts'
import { integratorFeeRefusal } from './integratorFeeRefusal.ts'
import { upstreamRegistry } from './registry.ts'

const recipient = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

test('no fee, or a fee within the cap: asked; above the cap or in a configuration without fees: refused with the reason', () => {
  const velora = upstreamRegistry.velora.adapter.fee
  assert.equal(integratorFeeRefusal({ terms: velora, fee: undefined, settings: testSettings('velora') }), undefined)
  assert.equal(integratorFeeRefusal({ terms: velora, fee: { bps: 200, recipient }, settings: testSettings('velora') }), undefined)
  assert.equal(
    integratorFeeRefusal({ terms: velora, fee: { bps: 201, recipient }, settings: testSettings('velora') }),
    'feeBps 201 is above its maximum integrator fee of 200 bps (partnerFeeBps): not asked',
  )
  const caps = Object.fromEntries(Object.entries(upstreamRegistry).map(([id, kind]) => [id, kind.adapter.fee.maxBps]))
  assert.deepEqual(caps, { '0x': 1000, '1inch': 300, kyberswap: undefined, odos: undefined, velora: 200, openocean: 500 })
  const odos = upstreamRegistry.odos.adapter.fee
  assert.equal(
    integratorFeeRefusal({ terms: odos, fee: { bps: 9000, recipient }, settings: testSettings('odos') }),
    undefined,
    "no published cap: our key's cap applies",
  )
  assert.match(
    integratorFeeRefusal({
      terms: odos,
      fee: { bps: 10, recipient },
      settings: testSettings('odos', { options: { quoteVersion: 'v2' } }),
    })!,
    /quote v3.*not asked with feeBps 10/,
  )
})
