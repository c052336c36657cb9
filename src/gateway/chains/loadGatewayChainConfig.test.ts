import assert from 'node:assert/strict'
import { test } from 'vitest'
import { getAddress } from 'viem'
import { multicall3Address } from '../../chains/multicall3Address.ts'
import { loadGatewayChainConfig } from './loadGatewayChainConfig.ts'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const chain = (chainId: number, extra: object = {}) => ({
  chainId,
  name: `chain ${chainId}`,
  launchpad: { factory: A, feeLocker: B, vestingVault: A, startBlock: '123' },
  ...extra,
})
const load = (json: unknown) => loadGatewayChainConfig({ path: 'gateway-chains.json', text: JSON.stringify(json) })

test('a chain config: addresses checksummed, the start block a bigint, defaults for the symbol and Multicall3', () => {
  const [base, monad] = load({ chains: [chain(8453, { rpcUrls: ['https://node.example/v1/k'], pairedAssets: [B] }), chain(143)] })
  assert.deepEqual(base, {
    chainId: 8453,
    name: 'chain 8453',
    nativeSymbol: 'ETH',
    rpcUrls: ['https://node.example/v1/k'],
    multicall3: multicall3Address,
    launchpad: {
      factory: getAddress(A),
      feeLocker: getAddress(B),
      vestingVault: getAddress(A),
      startBlock: 123n,
    },
    pairedAssets: [getAddress(B)],
  })
  assert.equal(monad.rpcUrls, undefined)
  assert.equal(monad.pairedAssets, undefined)
})

test('every problem is listed with its JSON path; a chain listed twice is one', () => {
  assert.throws(
    () =>
      load({
        chains: [chain(8453, { launchpad: { factory: 'nope', feeLocker: B, vestingVault: A } }), chain(4663, { rpcUrls: ['ws://x'] })],
      }),
    (error: Error) =>
      /\/chains\/0\/launchpad\/factory/.test(error.message) &&
      /\/chains\/0\/launchpad: .*startBlock/.test(error.message) &&
      /\/chains\/1\/rpcUrls\/0/.test(error.message),
  )
  assert.throws(() => load({ chains: [chain(8453), chain(8453)] }), /\/chains\/1\/chainId: chain 8453 is listed twice/)
  assert.throws(() => load({ chains: [] }), /\/chains/)
  assert.throws(() => load({ chains: [chain(8453, { router: A })] }), /\/chains\/0: .*router|additional/i)
  assert.throws(() => loadGatewayChainConfig({ path: 'x.json', text: '{' }), /GATEWAY_CHAIN_CONFIG x\.json: /)
})
