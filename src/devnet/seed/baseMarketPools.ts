/** The DEX kinds of the seeded market, as the spec's DexId. */
export type SeededDexId =
  | 'UNIV2'
  | 'UNIV3'
  | 'ALIEN_BASE_V3'
  | 'PANCAKE_V3'
  | 'UNIV4'
  | 'QUICKSWAP_V4'
  | 'HYDREX'
  | 'AERODROME_V2LIKE'
  | 'AERODROME_CL'
  | 'PANCAKE_V2'
  | 'PANCAKE_INFINITY_CL'

/** Every kind the seed must cover (a completeness test checks each has pools). */
export const seededDexIds: readonly SeededDexId[] = [
  'UNIV2',
  'UNIV3',
  'ALIEN_BASE_V3',
  'PANCAKE_V3',
  'UNIV4',
  'QUICKSWAP_V4',
  'HYDREX',
  'AERODROME_V2LIKE',
  'AERODROME_CL',
  'PANCAKE_V2',
  'PANCAKE_INFINITY_CL',
]

/** One pool to seed. */
export type MarketPoolSpec = {
  dex: SeededDexId
  pair: readonly [string, string]
  /**
   * Fee in pips. V2 kinds: ignored (their pair's fee). Algebra: ignored (the base plugin's adaptive
   * fee applies). AERODROME_V2LIKE: a custom factory fee (in pips, so 500 = 5 bps); 0: the
   * factory's default. AERODROME_CL: ignored (the spacing's fee, plus the dynamic fee module's).
   * PANCAKE_INFINITY_CL: the LP fee.
   */
  fee: number
  /** Tick spacing (V3 kinds: implied by the factory's tier; V4, Algebra, Slipstream and Infinity: chosen here). */
  tickSpacing: number
  /** AERODROME_V2LIKE: the stable curve (pegged pairs) or the volatile one. */
  stable?: boolean
  /** PANCAKE_INFINITY_CL: the packed protocol fee (12 bits per direction, low bits zeroForOne). */
  protocolFee?: number
  /** Total value locked, USD. */
  tvlUsd: number
}

const M = 1_000_000
const k = 1_000

/**
 * The seeded market: 96 pools over the eleven kinds. WETH/USDC is deep on every venue; long-tail
 * pairs are thin; several pairs sit on many venues so that splits matter. Each pool gets its own
 * small price offset when seeded. Aerodrome (volatile and stable) and Slipstream hold a large share
 * of the pairs, as on Base; PancakeSwap V2 and Infinity are thinner.
 */
export const baseMarketPools: readonly MarketPoolSpec[] = [
  // WETH/USDC: the deepest pair, on every venue.
  { dex: 'UNIV3', pair: ['WETH', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 40 * M },
  { dex: 'UNIV3', pair: ['WETH', 'USDC'], fee: 3000, tickSpacing: 60, tvlUsd: 8 * M },
  { dex: 'UNIV3', pair: ['WETH', 'USDC'], fee: 100, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'UNIV2', pair: ['WETH', 'USDC'], fee: 3000, tickSpacing: 1, tvlUsd: 12 * M },
  { dex: 'ALIEN_BASE_V3', pair: ['WETH', 'USDC'], fee: 750, tickSpacing: 15, tvlUsd: 1.5 * M },
  { dex: 'PANCAKE_V3', pair: ['WETH', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 6 * M },
  { dex: 'PANCAKE_V3', pair: ['WETH', 'USDC'], fee: 100, tickSpacing: 1, tvlUsd: 3 * M },
  { dex: 'UNIV4', pair: ['WETH', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 15 * M },
  { dex: 'UNIV4', pair: ['WETH', 'USDC'], fee: 3000, tickSpacing: 60, tvlUsd: 3 * M },
  { dex: 'QUICKSWAP_V4', pair: ['WETH', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 2 * M },
  { dex: 'HYDREX', pair: ['WETH', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 2.5 * M },
  { dex: 'AERODROME_V2LIKE', pair: ['WETH', 'USDC'], fee: 0, tickSpacing: 1, stable: false, tvlUsd: 10 * M },
  { dex: 'AERODROME_CL', pair: ['WETH', 'USDC'], fee: 0, tickSpacing: 100, tvlUsd: 20 * M },
  { dex: 'AERODROME_CL', pair: ['WETH', 'USDC'], fee: 0, tickSpacing: 1, tvlUsd: 3 * M },
  { dex: 'PANCAKE_V2', pair: ['WETH', 'USDC'], fee: 2500, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'PANCAKE_INFINITY_CL', pair: ['WETH', 'USDC'], fee: 500, tickSpacing: 10, protocolFee: (2000 << 12) | 1000, tvlUsd: 3 * M },
  // WETH/USDbC (the bridged dollar: thinner).
  { dex: 'UNIV2', pair: ['WETH', 'USDbC'], fee: 3000, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'UNIV3', pair: ['WETH', 'USDbC'], fee: 500, tickSpacing: 10, tvlUsd: 3 * M },
  { dex: 'ALIEN_BASE_V3', pair: ['WETH', 'USDbC'], fee: 3000, tickSpacing: 60, tvlUsd: 400 * k },
  { dex: 'PANCAKE_V3', pair: ['WETH', 'USDbC'], fee: 2500, tickSpacing: 50, tvlUsd: 600 * k },
  // cbBTC/WETH and cbBTC/USDC.
  { dex: 'UNIV3', pair: ['cbBTC', 'WETH'], fee: 500, tickSpacing: 10, tvlUsd: 10 * M },
  { dex: 'UNIV3', pair: ['cbBTC', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 2 * M },
  { dex: 'UNIV2', pair: ['cbBTC', 'WETH'], fee: 3000, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'PANCAKE_V3', pair: ['cbBTC', 'WETH'], fee: 500, tickSpacing: 10, tvlUsd: 3 * M },
  { dex: 'UNIV4', pair: ['cbBTC', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 1.5 * M },
  { dex: 'QUICKSWAP_V4', pair: ['cbBTC', 'WETH'], fee: 500, tickSpacing: 60, tvlUsd: 800 * k },
  { dex: 'AERODROME_V2LIKE', pair: ['cbBTC', 'WETH'], fee: 0, tickSpacing: 1, stable: false, tvlUsd: 1 * M },
  { dex: 'AERODROME_CL', pair: ['cbBTC', 'WETH'], fee: 0, tickSpacing: 100, tvlUsd: 3 * M },
  { dex: 'PANCAKE_V2', pair: ['cbBTC', 'WETH'], fee: 2500, tickSpacing: 1, tvlUsd: 300 * k },
  { dex: 'PANCAKE_INFINITY_CL', pair: ['cbBTC', 'WETH'], fee: 2500, tickSpacing: 50, protocolFee: (4000 << 12) | 4000, tvlUsd: 800 * k },
  { dex: 'UNIV3', pair: ['cbBTC', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 8 * M },
  { dex: 'UNIV4', pair: ['cbBTC', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 4 * M },
  { dex: 'PANCAKE_V3', pair: ['cbBTC', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 2 * M },
  { dex: 'HYDREX', pair: ['cbBTC', 'USDC'], fee: 500, tickSpacing: 60, tvlUsd: 700 * k },
  { dex: 'ALIEN_BASE_V3', pair: ['cbBTC', 'USDC'], fee: 750, tickSpacing: 15, tvlUsd: 300 * k },
  { dex: 'AERODROME_CL', pair: ['cbBTC', 'USDC'], fee: 0, tickSpacing: 100, tvlUsd: 5 * M },
  // Stables.
  { dex: 'UNIV3', pair: ['USDC', 'USDbC'], fee: 100, tickSpacing: 1, tvlUsd: 6 * M },
  { dex: 'PANCAKE_V3', pair: ['USDC', 'USDbC'], fee: 100, tickSpacing: 1, tvlUsd: 3 * M },
  { dex: 'UNIV4', pair: ['USDC', 'USDbC'], fee: 100, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'ALIEN_BASE_V3', pair: ['USDC', 'USDbC'], fee: 200, tickSpacing: 4, tvlUsd: 500 * k },
  { dex: 'UNIV2', pair: ['USDC', 'USDbC'], fee: 3000, tickSpacing: 1, tvlUsd: 300 * k },
  { dex: 'AERODROME_V2LIKE', pair: ['USDC', 'USDbC'], fee: 0, tickSpacing: 1, stable: true, tvlUsd: 5 * M },
  { dex: 'AERODROME_CL', pair: ['USDC', 'USDbC'], fee: 0, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'PANCAKE_INFINITY_CL', pair: ['USDC', 'USDbC'], fee: 100, tickSpacing: 1, protocolFee: 0, tvlUsd: 1 * M },
  { dex: 'UNIV3', pair: ['USDC', 'DAI'], fee: 100, tickSpacing: 1, tvlUsd: 4 * M },
  { dex: 'UNIV4', pair: ['USDC', 'DAI'], fee: 100, tickSpacing: 1, tvlUsd: 1.5 * M },
  { dex: 'PANCAKE_V3', pair: ['USDC', 'DAI'], fee: 100, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'HYDREX', pair: ['USDC', 'DAI'], fee: 100, tickSpacing: 1, tvlUsd: 600 * k },
  { dex: 'AERODROME_V2LIKE', pair: ['USDC', 'DAI'], fee: 0, tickSpacing: 1, stable: true, tvlUsd: 3 * M },
  { dex: 'AERODROME_V2LIKE', pair: ['USDbC', 'DAI'], fee: 100, tickSpacing: 1, stable: true, tvlUsd: 800 * k },
  { dex: 'PANCAKE_V2', pair: ['USDC', 'DAI'], fee: 2500, tickSpacing: 1, tvlUsd: 200 * k },
  { dex: 'UNIV2', pair: ['DAI', 'WETH'], fee: 3000, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'UNIV3', pair: ['DAI', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 1.5 * M },
  // ETH liquid staking tokens.
  { dex: 'UNIV3', pair: ['cbETH', 'WETH'], fee: 500, tickSpacing: 10, tvlUsd: 5 * M },
  { dex: 'UNIV3', pair: ['cbETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'PANCAKE_V3', pair: ['cbETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'UNIV4', pair: ['cbETH', 'WETH'], fee: 500, tickSpacing: 10, tvlUsd: 1 * M },
  { dex: 'QUICKSWAP_V4', pair: ['cbETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 600 * k },
  { dex: 'AERODROME_CL', pair: ['cbETH', 'WETH'], fee: 0, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'UNIV3', pair: ['wstETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 6 * M },
  { dex: 'UNIV3', pair: ['wstETH', 'WETH'], fee: 500, tickSpacing: 10, tvlUsd: 1.5 * M },
  { dex: 'UNIV4', pair: ['wstETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 2 * M },
  { dex: 'PANCAKE_V3', pair: ['wstETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'HYDREX', pair: ['wstETH', 'WETH'], fee: 100, tickSpacing: 1, tvlUsd: 800 * k },
  { dex: 'AERODROME_CL', pair: ['wstETH', 'WETH'], fee: 0, tickSpacing: 1, tvlUsd: 1.5 * M },
  { dex: 'PANCAKE_INFINITY_CL', pair: ['wstETH', 'WETH'], fee: 100, tickSpacing: 1, protocolFee: (500 << 12) | 3000, tvlUsd: 500 * k },
  { dex: 'UNIV3', pair: ['wstETH', 'USDC'], fee: 500, tickSpacing: 10, tvlUsd: 250 * k },
  // AERO.
  { dex: 'UNIV3', pair: ['AERO', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 3 * M },
  { dex: 'UNIV2', pair: ['AERO', 'WETH'], fee: 3000, tickSpacing: 1, tvlUsd: 1 * M },
  { dex: 'ALIEN_BASE_V3', pair: ['AERO', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 300 * k },
  { dex: 'QUICKSWAP_V4', pair: ['AERO', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 500 * k },
  { dex: 'HYDREX', pair: ['AERO', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 1.2 * M },
  { dex: 'UNIV3', pair: ['AERO', 'USDC'], fee: 3000, tickSpacing: 60, tvlUsd: 2 * M },
  { dex: 'UNIV2', pair: ['AERO', 'USDC'], fee: 3000, tickSpacing: 1, tvlUsd: 400 * k },
  { dex: 'PANCAKE_V3', pair: ['AERO', 'USDC'], fee: 2500, tickSpacing: 50, tvlUsd: 300 * k },
  { dex: 'AERODROME_V2LIKE', pair: ['AERO', 'WETH'], fee: 0, tickSpacing: 1, stable: false, tvlUsd: 4 * M },
  { dex: 'AERODROME_V2LIKE', pair: ['AERO', 'USDC'], fee: 2500, tickSpacing: 1, stable: false, tvlUsd: 6 * M },
  { dex: 'AERODROME_CL', pair: ['AERO', 'WETH'], fee: 0, tickSpacing: 200, tvlUsd: 2 * M },
  { dex: 'PANCAKE_V2', pair: ['AERO', 'USDC'], fee: 2500, tickSpacing: 1, tvlUsd: 150 * k },
  // Memes: thin, 1 % tiers.
  { dex: 'UNIV3', pair: ['DEGEN', 'WETH'], fee: 10000, tickSpacing: 200, tvlUsd: 1.5 * M },
  { dex: 'UNIV2', pair: ['DEGEN', 'WETH'], fee: 3000, tickSpacing: 1, tvlUsd: 600 * k },
  { dex: 'UNIV4', pair: ['DEGEN', 'WETH'], fee: 10000, tickSpacing: 200, tvlUsd: 400 * k },
  { dex: 'ALIEN_BASE_V3', pair: ['DEGEN', 'WETH'], fee: 10000, tickSpacing: 200, tvlUsd: 100 * k },
  { dex: 'PANCAKE_V3', pair: ['DEGEN', 'WETH'], fee: 10000, tickSpacing: 200, tvlUsd: 150 * k },
  { dex: 'UNIV2', pair: ['DEGEN', 'USDC'], fee: 3000, tickSpacing: 1, tvlUsd: 60 * k },
  { dex: 'AERODROME_V2LIKE', pair: ['DEGEN', 'WETH'], fee: 0, tickSpacing: 1, stable: false, tvlUsd: 300 * k },
  { dex: 'AERODROME_CL', pair: ['DEGEN', 'WETH'], fee: 0, tickSpacing: 2000, tvlUsd: 200 * k },
  { dex: 'PANCAKE_V2', pair: ['DEGEN', 'WETH'], fee: 2500, tickSpacing: 1, tvlUsd: 100 * k },
  { dex: 'UNIV3', pair: ['BRETT', 'WETH'], fee: 10000, tickSpacing: 200, tvlUsd: 2 * M },
  { dex: 'UNIV2', pair: ['BRETT', 'WETH'], fee: 3000, tickSpacing: 1, tvlUsd: 500 * k },
  { dex: 'UNIV4', pair: ['BRETT', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 300 * k },
  { dex: 'QUICKSWAP_V4', pair: ['BRETT', 'WETH'], fee: 3000, tickSpacing: 60, tvlUsd: 250 * k },
  { dex: 'ALIEN_BASE_V3', pair: ['BRETT', 'WETH'], fee: 10000, tickSpacing: 200, tvlUsd: 80 * k },
  { dex: 'AERODROME_V2LIKE', pair: ['BRETT', 'WETH'], fee: 0, tickSpacing: 1, stable: false, tvlUsd: 400 * k },
  { dex: 'AERODROME_CL', pair: ['BRETT', 'WETH'], fee: 0, tickSpacing: 200, tvlUsd: 600 * k },
  { dex: 'PANCAKE_INFINITY_CL', pair: ['BRETT', 'WETH'], fee: 10000, tickSpacing: 200, protocolFee: (3000 << 12) | 3000, tvlUsd: 100 * k },
]
