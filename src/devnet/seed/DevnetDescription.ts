import type { Address, Hex } from 'viem'
import type { DeployCurveCryptoMarketReturnType } from '../deployCurveCryptoMarket.ts'
import type { DeployCurveTricryptoMarketReturnType } from '../deployCurveTricryptoMarket.ts'
import type { DeployCurveStableSwapMarketReturnType } from '../deployCurveStableSwapMarket.ts'
import type { PropAmmDescription } from '../propAmm/PropAmmDescription.ts'
import type { SeededDexId } from './baseMarketPools.ts'

/** A seeded pool as `var/devnet.json` lists it. */
export type SeededPool = {
  /** The pool contract; for UNIV4 the bytes32 pool id. */
  address: Hex
  dex: SeededDexId
  /** [token0, token1], sorted. */
  tokens: [Address, Address]
  symbols: [string, string]
  /**
   * Fee in pips at creation (UNIV2: 3000; PANCAKE_V2: 2500; Algebra: the factory default, the
   * plugin's adaptive fee applies; AERODROME_V2LIKE: the factory fee in pips; AERODROME_CL: the
   * spacing's fee, before the dynamic module's part; PANCAKE_INFINITY_CL: the LP fee).
   */
  fee: number
  tickSpacing: number
  /** UNIV4 and PANCAKE_INFINITY_CL only: the rest of the PoolKey (currency0/1 equal tokens; hookless). */
  currency0?: Address
  currency1?: Address
  hooks?: Address
  /** AERODROME_V2LIKE only: the curve. */
  stable?: boolean
  /** PANCAKE_INFINITY_CL only: the packed protocol fee set at seeding. */
  protocolFee?: number
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
  AERODROME_V2LIKE: { factory: Address; implementation: Address }
  AERODROME_CL: { factory: Address; implementation: Address; swapFeeModule: Address }
  PANCAKE_V2: { factory: Address; initCodeHash: Hex }
  /** `poolManager` is the CL pool manager (it announces pools); `testRouter` adds liquidity for the seed. */
  PANCAKE_INFINITY_CL: { poolManager: Address; vault: Address; protocolFeeController: Address; testRouter: Address }
  /** The factory that lists the Curve NG pools (its registry, as Curve's) and its views contract; set once the Curve market is seeded. */
  CURVE?: { factory: Address; views: Address }
  /** Our `DodoPmmFactory` (announces DVM, DSP and DPP pools as DODO's factories do) and the pools' maintainer fee-rate model. */
  DODO_V2?: { factory: Address; feeRateModel: Address }
  /** Our `MaverickV2Factory` (announces pools with Maverick V2's `PoolCreated`). */
  MAVERICK_V2?: { factory: Address }
  /** `address` is Balancer's V2 Vault (its `PoolRegistered` announces the E-CLPs); the two settable rate providers. */
  GYROSCOPE_ECLP?: { address: Address; cbETHRateProvider: Address; wstETHRateProvider: Address }
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
  /** The prop AMM venues, their operator relay and its sender (`deployPropAmms`). */
  propAmms: PropAmmDescription
  /** The Curve StableSwap market (`deployCurveStableSwapMarket`): NG pools, a legacy plain pool and a meta pool on it. */
  curve: DeployCurveStableSwapMarketReturnType
  /** The Curve twocrypto-ng market on our stand-in (`deployCurveCryptoMarket`): its factory and three pools. */
  curveCrypto?: DeployCurveCryptoMarketReturnType
  /** The Curve tricrypto-ng market on our stand-in (`deployCurveTricryptoMarket`): the math contract, its factory and one pool. */
  curveTricrypto?: DeployCurveTricryptoMarketReturnType
  /**
   * The WOOFi vault, its Wooracle (the prop AMM relay is one of its admins), WooRouterV2 and
   * Chainlink feeds (USDC first), and its bases (`deployWoofiMarket`).
   */
  woofi: { pool: Address; oracle: Address; router: Address; feeds: Address[]; bases: { symbol: string; token: Address }[] }
  factories: SeededFactories
  /** Test contracts on the chain (PoolHarness answers V3/Pancake/Algebra callbacks). */
  helpers: { poolHarness: Address }
  accounts: { address: Address; privateKey: Hex }[]
  /** The seed the market was built from, and the key of the sources it was built with. */
  seed: number
  stateKey: string
}
