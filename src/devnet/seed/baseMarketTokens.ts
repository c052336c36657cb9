/** A token of the seeded market. */
export type MarketToken = {
  symbol: string
  name: string
  decimals: number
  /** Fair price in USD; float on purpose: it only shapes the market, it never pays anything. */
  priceUsd: number
  /** Tokens of one peg group trade in tight ranges against each other (stables, ETH and its LSTs). */
  peg?: 'USD' | 'ETH' | 'BTC'
}

/**
 * The ten tokens of the Base-like market, with realistic decimals and prices. WETH is our WETH9;
 * the others are `TestERC20` (EIP-2612 permit, open mint).
 */
export const baseMarketTokens: readonly MarketToken[] = [
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceUsd: 3000, peg: 'ETH' },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, priceUsd: 1, peg: 'USD' },
  { symbol: 'USDbC', name: 'USD Base Coin', decimals: 6, priceUsd: 1, peg: 'USD' },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceUsd: 1, peg: 'USD' },
  { symbol: 'cbBTC', name: 'Coinbase Wrapped BTC', decimals: 8, priceUsd: 60000, peg: 'BTC' },
  { symbol: 'cbETH', name: 'Coinbase Wrapped Staked ETH', decimals: 18, priceUsd: 3300, peg: 'ETH' },
  { symbol: 'wstETH', name: 'Wrapped liquid staked Ether 2.0', decimals: 18, priceUsd: 3550, peg: 'ETH' },
  { symbol: 'AERO', name: 'Aerodrome', decimals: 18, priceUsd: 1.2 },
  { symbol: 'DEGEN', name: 'Degen', decimals: 18, priceUsd: 0.01 },
  { symbol: 'BRETT', name: 'Brett', decimals: 18, priceUsd: 0.12 },
]
