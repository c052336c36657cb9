import type { ChainConfig } from './ChainConfig.ts'

/** Base produces a block every 2 seconds, each exactly 2 seconds after its parent. */
export const BASE_BLOCK_TIME_SEC = 2

/**
 * Base mainnet (8453) deployments of the kinds we have adapters for (shared/research/dex-kinds.md
 * §1). A deployment's `fromBlock` is its first block (the factory's deployment): discovery scans
 * its creation events from there (chunked getLogs, persisted: docs/real-chain.md). Without one (a
 * start block we could not confirm), the cold start reads the configured `pools` and then discovers
 * pools created while it runs; a `CHAIN_CONFIG` file sets the missing start blocks.
 *
 * @example
 * const market = await createMarketState({ client, chain: { ...base, rpcUrl: process.env.RPC_URL }, solver, maxSnapshotAgeMs: 10_000 })
 */
export const base: ChainConfig = {
  name: 'base',
  chainId: 8453,
  blockTimeSec: BASE_BLOCK_TIME_SEC,
  opStack: true,
  weth: '0x4200000000000000000000000000000000000006',
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  deployments: {
    UNIV2: { source: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', fromBlock: 6_601_915n },
    UNIV3: { source: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD', fromBlock: 1_371_680n },
    UNIV4: { source: '0x498581fF718922c3f8e6A244956aF099B2652b2b' },
    ALIEN_BASE_V3: { source: '0x0Fd83557b2be93617c9C1C1B6fd549401C74558C' },
    // PancakeV3Factory emits PoolCreated (its PoolDeployer 0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9 only CREATE2s).
    PANCAKE_V3: { source: '0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865' },
    QUICKSWAP_V4: { source: '0xC5396866754799B9720125B104AE01d935Ab9C7b' },
    HYDREX: { source: '0x36077D39cdC65E1e3FB65810430E5b2c4D5fA29E' },
  },
  pools: [],
}
