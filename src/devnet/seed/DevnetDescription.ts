import type { Address, Hex } from 'viem'
import type { SeededDexId } from './baseMarketPools.ts'

/** A seeded pool as `var/devnet.json` lists it. */
export type SeededPool = {
  /** The pool contract; for UNIV4 the bytes32 pool id. */
  address: Hex
  dex: SeededDexId
  /** [token0, token1], sorted. */
  tokens: [Address, Address]
  symbols: [string, string]
  /** Fee in pips at creation (UNIV2: 3000; Algebra: the factory default, the plugin's adaptive fee applies). */
  fee: number
  tickSpacing: number
  /** UNIV4 only: the rest of the PoolKey (currency0/1 equal tokens; hookless). */
  currency0?: Address
  currency1?: Address
  hooks?: Address
  /** Algebra only: the pool's plugin (AlgebraBasePluginV1). */
  plugin?: Address
}

/** Where each kind's pools are discovered. */
export type SeededFactories = {
  UNIV2: { factory: Address }
  UNIV3: { factory: Address }
  ALIEN_BASE_V3: { factory: Address }
  PANCAKE_V3: { factory: Address; poolDeployer: Address }
  UNIV4: { poolManager: Address; swapRouter: Address; liquidityRouter: Address }
  QUICKSWAP_V4: { factory: Address; poolDeployer: Address; basePluginFactory: Address }
  HYDREX: { factory: Address; poolDeployer: Address; basePluginFactory: Address }
}

/** The content of `var/devnet.json`. */
export type DevnetDescription = {
  rpcUrl: string
  chainId: number
  /** Our swap router, deployed by the seed (see `deploySeedRouter`). */
  router: Address
  weth: Address
  multicall: Address
  tokens: Record<string, { address: Address; decimals: number }>
  pools: SeededPool[]
  factories: SeededFactories
  /** Test contracts on the chain (PoolHarness answers V3/Pancake/Algebra callbacks). */
  helpers: { poolHarness: Address }
  accounts: { address: Address; privateKey: Hex }[]
  /** The seed the market was built from, and the key of the sources it was built with. */
  seed: number
  stateKey: string
}
