import { readFileSync } from 'node:fs'
import type { Address } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { ConfiguredPool, DexDeployment } from '../adapters/PoolAdapter.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { BASE_BLOCK_TIME_SEC } from './base.ts'
import type { ChainConfig } from './ChainConfig.ts'

/** `var/devnet.json`, as the seeded market writes it. */
export type DevnetFile = {
  rpcUrl: string
  chainId: number
  router?: Address
  weth: Address
  multicall: Address
  tokens?: Record<string, { address: Address; decimals: number }>
  pools?: (ConfiguredPool & { tokens?: Address[] })[]
  /**
   * By DexId (UNIV4: the PoolManager), or by a protocol name listed in `factoryNames`; an address,
   * `{ address }`, or the seed's shape (`{ factory, ... }`, UNIV4 `{ poolManager, ... }`).
   */
  factories?: Record<string, Address | { address: Address } | { factory: Address } | { poolManager: Address }>
  /** The prop AMM venues (`deployPropAmms`): followed as configured pools once their kind has an adapter. */
  propAmms?: { venues: { dex: DexId; address: Address }[] }
  /** The seeded Curve pools: the NG ones are listed from `factories.CURVE`'s registry, the legacy plain one (and the meta one, when asked) followed as configured pools. */
  curve?: { pools: { pool: Address; template: 'ng' | 'legacy' | 'meta' }[] }
  /** The seeded twocrypto-ng pools (`deployCurveCryptoMarket`): discovered from their factory's `TwocryptoPoolDeployed`. */
  curveCrypto?: { factory: Address; pools: { pool: Address }[] }
  /** The seeded tricrypto-ng pool (`deployCurveTricryptoMarket`): discovered from its factory's `TricryptoPoolDeployed`. */
  curveTricrypto?: { factory: Address; pools: { pool: Address }[] }
  /** The WOOFi vault (`deployWoofiMarket`): followed as a configured pool with its router and bases. */
  woofi?: { pool: Address; router: Address; bases: { token: Address }[] }
  accounts?: unknown[]
}

/** Names the seed may use for a kind's factory besides the DexId itself. */
const factoryNames: Record<string, DexId> = {
  uniswapV2: 'UNIV2',
  uniswapV3: 'UNIV3',
  uniswapV4: 'UNIV4',
  poolManager: 'UNIV4',
  alienBaseV3: 'ALIEN_BASE_V3',
  pancakeV3: 'PANCAKE_V3',
  quickswapV4: 'QUICKSWAP_V4',
  algebra: 'QUICKSWAP_V4',
  hydrex: 'HYDREX',
}

export type DevnetChainConfigParameters = {
  /** The parsed file, or a path to it (default `var/devnet.json` from the working directory). */
  file?: DevnetFile
  path?: string
  /**
   * Follow the seeded Curve meta pool too (default false). Its venue is exact and executable, but
   * its bound is loose (the base coins are priced at the base pool's marginal rate, without its
   * curvature): with it on the market, route-quality goals do not hold (docs/dex-kinds.md, CURVE).
   */
  curveMetaPools?: boolean
}

/**
 * The chain config of our seeded devnet: deployments from `factories` (scanned from block 0, the
 * devnet is small) and the listed pools. Unknown factory names are refused, not ignored.
 *
 * @example
 * const chain = devnetChainConfig({ path: 'var/devnet.json' })
 * // → { name: 'devnet', chainId, blockTimeSec: 2, rpcUrl, deployments (each from block 0), pools, … }
 */
export function devnetChainConfig({
  file,
  path = 'var/devnet.json',
  curveMetaPools = false,
}: DevnetChainConfigParameters = {}): ChainConfig {
  const devnet: DevnetFile = file ?? JSON.parse(readFileSync(path, 'utf8'))
  const deployments: Partial<Record<DexId, DexDeployment>> = {}
  for (const [name, value] of Object.entries(devnet.factories ?? {})) {
    const dex = name in adapterRegistry ? (name as DexId) : factoryNames[name]
    if (!dex) throw new Error(`devnet.json: factory "${name}" is neither a DexId nor one of ${Object.keys(factoryNames).join(', ')}`)
    const source =
      typeof value === 'string' ? value : 'address' in value ? value.address : 'factory' in value ? value.factory : value.poolManager
    if (!source) throw new Error(`devnet.json: factory "${name}" has no address, factory or poolManager`)
    deployments[dex] = { source, fromBlock: 0n }
  }
  const pools: ConfiguredPool[] = (devnet.pools ?? []).map(({ tokens: _tokens, ...pool }) => pool)
  // The prop AMMs have no factory to discover them from; until the router executes their leg their
  // kinds are absent from the registry, and the venues are not followed (docs/dex-kinds.md).
  for (const { dex, address } of devnet.propAmms?.venues ?? []) if (adapterRegistry[dex]?.status === 'present') pools.push({ dex, address })
  // Legacy Curve pools (plain and meta) have no factory here to announce them. A meta pool holds its
  // base pool's state, so the solver refuses the base pool as a venue of its own beside it
  // (docs/dex-kinds.md, CURVE); it is followed only when asked (`curveMetaPools`).
  for (const { pool, template } of devnet.curve?.pools ?? [])
    if (template === 'legacy' || (template === 'meta' && curveMetaPools)) pools.push({ dex: 'CURVE', address: pool })
  // CryptoSwap pools: their factories announce them (TwocryptoPoolDeployed, TricryptoPoolDeployed)
  // as Base's do, so they are CURVE's deployments beside the StableSwap factory of `factories.CURVE`.
  const cryptoFactories = [devnet.curveCrypto?.factory, devnet.curveTricrypto?.factory].flatMap((source) =>
    source ? [{ source, fromBlock: 0n }] : [],
  )
  // The StableSwap factory keeps Curve's registry, and its event does not name the pool: listed.
  const curve = [...(deployments.CURVE ? [{ ...deployments.CURVE, registry: true }] : []), ...cryptoFactories]
  const woofi = devnet.woofi
  if (woofi) pools.push({ dex: 'WOOFI', address: woofi.pool, router: woofi.router, bases: woofi.bases.map((b) => b.token) })
  return {
    name: 'devnet',
    chainId: devnet.chainId,
    // The embedded chain keeps Base's 2-second blocks (startSeededDevnet sets anvil's timestamp interval).
    blockTimeSec: BASE_BLOCK_TIME_SEC,
    rpcUrl: devnet.rpcUrl,
    weth: devnet.weth,
    multicall3: devnet.multicall,
    router: devnet.router,
    deployments: curve.length > 0 ? { ...deployments, CURVE: curve } : deployments,
    pools,
    tokens: devnet.tokens,
  }
}
