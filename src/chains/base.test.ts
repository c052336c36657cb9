import assert from 'node:assert/strict'
import { test } from 'vitest'
import { getAddress, isHex } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { base } from './base.ts'
import { chainDeployments } from './chainDeployments.ts'

test('every Base deployment the discovery scans has a start block, none before the first DEX on Base (scanning from 0 would cost thousands of getLogs ranges)', () => {
  const deployments = chainDeployments(base.deployments)
  assert.ok(deployments.length >= 7)
  // A registry is listed, not scanned: Curve's two StableSwap factories.
  assert.deepEqual(
    deployments.filter((d) => d.deployment.registry).map((d) => d.dex),
    ['CURVE', 'CURVE'],
  )
  for (const { dex, deployment } of deployments.filter((d) => !d.deployment.registry)) {
    assert.equal(typeof deployment?.fromBlock, 'bigint', `${dex} has no start block`)
    assert.ok((deployment?.fromBlock ?? 0n) > 1_000_000n, `${dex}: ${deployment?.fromBlock} is before any DEX on Base`)
  }
})

test('Base names a deployment for every kind with an adapter: checksummed addresses, 32-byte init code hashes', () => {
  const present = (Object.keys(adapterRegistry) as DexId[]).filter((dex) => adapterRegistry[dex].status === 'present')
  // Kinds only ever configured (no discovery events: the prop AMMs) have no deployment to scan;
  // Base says it follows none of their venues.
  const discovered = (dex: DexId) => {
    const entry = adapterRegistry[dex]
    return entry.status === 'present' && entry.adapter.discoveryTopics.length > 0
  }
  for (const dex of present.filter((d) => !discovered(d)))
    assert.ok(
      base.notCovered?.some((v) => v.dex === dex),
      `${dex} is configured only, and Base's notCovered does not say it names no venue`,
    )
  for (const dex of present.filter(discovered)) {
    const ofKind = chainDeployments(base.deployments).filter((d) => d.dex === dex)
    // A kind whose Base deployment is unverified (GYROSCOPE_ECLP) says so in notCovered (/ready lists it).
    if (ofKind.length === 0 && base.notCovered?.some((v) => v.dex === dex)) continue
    assert.ok(ofKind.length > 0, `${dex} has an adapter but no Base deployment, and Base's notCovered does not say why`)
    for (const { deployment } of ofKind) {
      // A mistyped address fails its EIP-55 checksum here instead of listening to nothing on Base.
      assert.equal(getAddress(deployment.source), deployment.source, `${dex}: ${deployment.source}`)
      if (deployment.initCodeHash !== undefined)
        assert.ok(isHex(deployment.initCodeHash) && deployment.initCodeHash.length === 66, `${dex}: ${deployment.initCodeHash}`)
    }
  }
  assert.deepEqual(
    Object.keys(base.deployments).filter((dex) => !present.includes(dex as DexId)),
    [],
    'a deployment of a kind without an adapter',
  )
})

test("Base lists what it does not follow: Slipstream's two later CL factories and Infinity's pool types other than CL", () => {
  const listed = (base.notCovered ?? []).map((v) => `${v.dex}: ${v.what}`).join('\n')
  assert.match(listed, /AERODROME_CL: .*0xaDe65c38CD4849aDBA595a4323a8C7DdfE89716a.*0xf8f2eB4940CFE7d13603DDDD87f123820Fc061Ef/)
  assert.match(listed, /PANCAKE_INFINITY: .*other than CL/)
})
