import assert from 'node:assert/strict'
import { test } from 'vitest'
import { devnetChainConfig } from './devnetChainConfig.ts'

const file = {
  rpcUrl: 'http://127.0.0.1:8545',
  chainId: 8453,
  router: '0x00000000000000000000000000000000000000aa',
  weth: '0x4200000000000000000000000000000000000006',
  multicall: '0xcA11bde05977b3631167028862bE2a173976CA11',
  tokens: { USDC: { address: '0x00000000000000000000000000000000000000c1', decimals: 6 } },
  pools: [{ address: '0x00000000000000000000000000000000000000b1', dex: 'UNIV2', tokens: ['0x1', '0x2'] }],
  factories: {
    UNIV2: '0x00000000000000000000000000000000000000f2',
    poolManager: { address: '0x00000000000000000000000000000000000000f4' },
  },
  accounts: [],
} as const

test('devnet.json becomes a chain config: factories by DexId or protocol name, pools without their token list', () => {
  const chain = devnetChainConfig({ file: file as never })
  assert.equal(chain.chainId, 8453)
  assert.equal(chain.multicall3, file.multicall)
  assert.deepEqual(chain.deployments, {
    UNIV2: { source: '0x00000000000000000000000000000000000000f2', fromBlock: 0n },
    UNIV4: { source: '0x00000000000000000000000000000000000000f4', fromBlock: 0n },
  })
  assert.deepEqual(chain.pools, [{ address: '0x00000000000000000000000000000000000000b1', dex: 'UNIV2' }])
})

test('an unknown factory name is refused', () => {
  assert.throws(
    () => devnetChainConfig({ file: { ...file, factories: { sushi: '0x00000000000000000000000000000000000000f2' } } as never }),
    /sushi/,
  )
})

test("the seed's factory shape: { factory, ... } and UNIV4's { poolManager, ... }", () => {
  const factories = {
    UNIV3: { factory: '0x00000000000000000000000000000000000000f3' },
    PANCAKE_V3: { factory: '0x00000000000000000000000000000000000000f5', poolDeployer: '0x00000000000000000000000000000000000000f6' },
    UNIV4: { poolManager: '0x00000000000000000000000000000000000000f4', swapRouter: '0x00000000000000000000000000000000000000f7' },
  }
  const chain = devnetChainConfig({ file: { ...file, factories } as never })
  assert.deepEqual(chain.deployments, {
    UNIV3: { source: '0x00000000000000000000000000000000000000f3', fromBlock: 0n },
    PANCAKE_V3: { source: '0x00000000000000000000000000000000000000f5', fromBlock: 0n },
    UNIV4: { source: '0x00000000000000000000000000000000000000f4', fromBlock: 0n },
  })
})

test("Curve's CryptoSwap factories are CURVE deployments beside its StableSwap factory (a registry), so their pools are discovered", () => {
  const chain = devnetChainConfig({
    file: {
      ...file,
      factories: { CURVE: { factory: '0x00000000000000000000000000000000000000c0' } },
      curveCrypto: {
        factory: '0x00000000000000000000000000000000000000c2',
        pools: [{ pool: '0x00000000000000000000000000000000000000d2' }],
      },
      curveTricrypto: {
        factory: '0x00000000000000000000000000000000000000c3',
        pools: [{ pool: '0x00000000000000000000000000000000000000d3' }],
      },
    } as never,
  })
  assert.deepEqual(chain.deployments.CURVE, [
    { source: '0x00000000000000000000000000000000000000c0', fromBlock: 0n, registry: true },
    { source: '0x00000000000000000000000000000000000000c2', fromBlock: 0n },
    { source: '0x00000000000000000000000000000000000000c3', fromBlock: 0n },
  ])
  assert.ok(!chain.pools.some((p) => p.dex === 'CURVE'), 'the CryptoSwap pools are not listed: they are discovered')
})
