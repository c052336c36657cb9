import type { PropAmmDexId } from '../../adapters/propAmm/propAmmDexIds.ts'

/** One prop AMM venue of the devnet, on `base`/USDC. */
export type PropAmmVenueSpec = {
  dex: PropAmmDexId
  /** The base token's symbol (the quote is USDC). */
  base: 'WETH' | 'cbBTC'
  /** Inventory the venue holds, in USD, half in each token. */
  inventoryUsd: number
  /**
   * The curve's virtual depth in USD (`OperatorCurve`: the marginal price halves after selling this
   * much value); LUNARBASE has no depth (its punishment plays the part).
   */
  depthUsd: number
  /** Fee in pips (1e6 = 100 %); LUNARBASE: the same fee, both directions, as a Q24 fraction at deploy. */
  feePips: number
  /** Blocks an operator update stays fresh. */
  blockDelay: number
}

/**
 * The prop AMMs of the seeded market: every kind on WETH/USDC and cbBTC/USDC, shallower than the
 * deepest pools (a few $M) but with tighter fees, so a split sends them a share. The keeper
 * re-prices them around the pair's deepest UNIV3 pool (`startPropAmmKeeper`).
 */
export const propAmmVenueSpecs: readonly PropAmmVenueSpec[] = [
  { dex: 'PROPSWAP', base: 'WETH', inventoryUsd: 2_000_000, depthUsd: 3_000_000, feePips: 300, blockDelay: 10 },
  { dex: 'TESSERA', base: 'WETH', inventoryUsd: 2_000_000, depthUsd: 2_500_000, feePips: 200, blockDelay: 10 },
  { dex: 'ELFOMOFI', base: 'WETH', inventoryUsd: 1_500_000, depthUsd: 2_000_000, feePips: 400, blockDelay: 5 },
  { dex: 'LUNARBASE', base: 'WETH', inventoryUsd: 2_000_000, depthUsd: 0, feePips: 300, blockDelay: 10 },
  { dex: 'FELTIR', base: 'WETH', inventoryUsd: 1_000_000, depthUsd: 1_500_000, feePips: 500, blockDelay: 10 },
  { dex: 'PROPSWAP', base: 'cbBTC', inventoryUsd: 1_000_000, depthUsd: 1_500_000, feePips: 300, blockDelay: 10 },
  { dex: 'TESSERA', base: 'cbBTC', inventoryUsd: 800_000, depthUsd: 1_000_000, feePips: 250, blockDelay: 10 },
  { dex: 'ELFOMOFI', base: 'cbBTC', inventoryUsd: 600_000, depthUsd: 800_000, feePips: 400, blockDelay: 5 },
  { dex: 'LUNARBASE', base: 'cbBTC', inventoryUsd: 800_000, depthUsd: 0, feePips: 300, blockDelay: 10 },
  { dex: 'FELTIR', base: 'cbBTC', inventoryUsd: 500_000, depthUsd: 800_000, feePips: 500, blockDelay: 10 },
]
