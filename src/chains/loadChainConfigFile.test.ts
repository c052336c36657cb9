import assert from 'node:assert/strict'
import { test } from 'vitest'
import { chainDeployments, deploymentsFile, firstDeployment, scannedFrom } from './chainDeployments.ts'
import { loadChainConfigFile } from './loadChainConfigFile.ts'
import { loadPoolsFile } from './loadPoolsFile.ts'

const ok = {
  name: 'fork',
  chainId: 8453,
  weth: '0x4200000000000000000000000000000000000006',
  opStack: true,
  deployments: {
    UNIV2: { source: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', fromBlock: 6601915 },
    UNIV3: { source: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD', fromBlock: '1371680' },
  },
  denyTokens: ['0x00000000000000000000000000000000000000d1'],
}

test('a chain config file: start blocks as integers or strings, defaults for the rest', () => {
  const chain = loadChainConfigFile({ path: 'chain.json', text: JSON.stringify(ok) })
  assert.deepEqual(chain.deployments, {
    UNIV2: { source: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', fromBlock: 6601915n },
    UNIV3: { source: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD', fromBlock: 1371680n },
  })
  assert.equal(chain.blockTimeSec, 2)
  assert.equal(chain.multicall3, '0xcA11bde05977b3631167028862bE2a173976CA11')
  assert.equal(chain.opStack, true)
  assert.deepEqual(chain.pools, [])
  assert.deepEqual(chain.denyTokens, ok.denyTokens)
})

test('every problem is named with its path: unknown kinds, bad addresses, extra fields, bad JSON', () => {
  const bad = {
    ...ok,
    deployments: { ...ok.deployments, MAVERICK_V2: { source: '0x00000000000000000000000000000000000000c0' }, UNIV4: { source: 'nope' } },
    extra: 1,
  }
  assert.throws(
    () => loadChainConfigFile({ path: 'chain.json', text: JSON.stringify(bad) }),
    (error: Error) => {
      assert.match(error.message, /CHAIN_CONFIG chain\.json:/)
      assert.match(error.message, /\/deployments\/UNIV4\/source/)
      assert.match(error.message, /extra|additional/i)
      return true
    },
  )
  assert.throws(
    () =>
      loadChainConfigFile({
        path: 'chain.json',
        // Every spec kind has an adapter now: a kind outside the list stands for one without.
        text: JSON.stringify({ ...ok, deployments: { SUSHI: { source: '0x00000000000000000000000000000000000000c0' } } }),
      }),
    /\/deployments\/SUSHI: no adapter/,
  )
  assert.throws(() => loadChainConfigFile({ path: 'chain.json', text: '{' }), /CHAIN_CONFIG chain\.json: .*JSON/)
  assert.deepEqual(loadPoolsFile({ path: 'p.json', text: '[{"dex":"UNIV2","address":"0x00000000000000000000000000000000000000b1"}]' }), [
    { dex: 'UNIV2', address: '0x00000000000000000000000000000000000000b1' },
  ])
  assert.throws(
    () => loadPoolsFile({ path: 'p.json', text: '[{"dex":"SUSHI","address":"0x00000000000000000000000000000000000000b1"}]' }),
    /\/0\/dex: no adapter for SUSHI/,
  )
})

test('notCovered: the venues the operator knows are not followed, kept as written (listed in /ready)', () => {
  const notCovered = [{ dex: 'CURVE', what: 'no adapter on this fork' }]
  assert.deepEqual(loadChainConfigFile({ path: 'chain.json', text: JSON.stringify({ ...ok, notCovered }) }).notCovered, notCovered)
  assert.deepEqual(loadChainConfigFile({ path: 'chain.json', text: JSON.stringify(ok) }).notCovered, [])
  assert.throws(
    () => loadChainConfigFile({ path: 'chain.json', text: JSON.stringify({ ...ok, notCovered: [{ dex: '' }] }) }),
    /\/notCovered\/0/,
  )
})

test('a kind announced by several contracts lists them all; each is scanned, the first makes configured pools; an empty list is refused', () => {
  const twocrypto = { source: '0xc9Fe0C63Af9A39402e8a5514f9c43Af0322b665F', fromBlock: 1371680 }
  const tricrypto = { source: '0xA5961898870943c68037F6848d2D866Ed2016bcB', fromBlock: '1371680' }
  const stableNg = { source: '0xd2002373543Ce3527023C75e7518C274A51ce712', registry: true }
  const chain = loadChainConfigFile({
    path: 'chain.json',
    text: JSON.stringify({ ...ok, deployments: { ...ok.deployments, CURVE: [twocrypto, tricrypto, stableNg] } }),
  })
  assert.deepEqual(chain.deployments.CURVE, [
    { source: twocrypto.source, fromBlock: 1371680n },
    { source: tricrypto.source, fromBlock: 1371680n },
    stableNg,
  ])
  // Only a kind whose pools are listed from a registry (Curve's StableSwap factories) takes one.
  assert.throws(
    () =>
      loadChainConfigFile({
        path: 'chain.json',
        text: JSON.stringify({ ...ok, deployments: { ...ok.deployments, UNIV2: { ...ok.deployments.UNIV2, registry: true } } }),
      }),
    /\/deployments\/UNIV2\/registry: UNIV2 pools are not listed from a registry/,
  )
  assert.deepEqual(
    chainDeployments(chain.deployments).map(({ dex, deployment }) => `${dex} ${deployment.source}`),
    [
      `UNIV2 ${ok.deployments.UNIV2.source}`,
      `UNIV3 ${ok.deployments.UNIV3.source}`,
      `CURVE ${twocrypto.source}`,
      `CURVE ${tricrypto.source}`,
      `CURVE ${stableNg.source}`,
    ],
  )
  assert.equal(firstDeployment(chain.deployments, 'CURVE')?.source, twocrypto.source)
  assert.equal(firstDeployment(chain.deployments, 'UNIV2')?.source, ok.deployments.UNIV2.source)
  assert.equal(firstDeployment(chain.deployments, 'UNIV4'), undefined)
  assert.throws(
    () => loadChainConfigFile({ path: 'chain.json', text: JSON.stringify({ ...ok, deployments: { CURVE: [] } }) }),
    /\/deployments\/CURVE/,
  )
  assert.deepEqual(scannedFrom(chain.deployments, 0n).CURVE, [
    { source: twocrypto.source, fromBlock: 0n },
    { source: tricrypto.source, fromBlock: 0n },
    { ...stableNg, fromBlock: 0n },
  ])
  assert.deepEqual(deploymentsFile(chain.deployments, 0).CURVE, [
    { source: twocrypto.source, fromBlock: 0 },
    { source: tricrypto.source, fromBlock: 0 },
    { ...stableNg, fromBlock: 0 },
  ])
})
