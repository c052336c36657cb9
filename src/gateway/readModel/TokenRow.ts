/** A `tokens` row as the read routes select it. */
export type TokenRow = {
  chain_id: number
  address: string
  name: string
  symbol: string
  extra_metadata: string
  decimals: number
  total_supply: string
  creator: string
  admin: string
  factory: string
  pool: string
  paired_token: string
  token_is_token0: number
  pool_fee: number
  tick_spacing: number
  tick_lower: number
  tick_upper: number
  position_liquidity: string
  pool_supply: string
  vesting_supply: string
  salt: string
  starting_tick: number
  launch_tx: string
  launch_block: number
  launch_log_index: number
  launched_at: number
  dev_buy_amount_in: string | null
  dev_buy_amount_out: string | null
  sqrt_price_x96: string
  tick: number
  trade_count: number
  holder_count: number
  holders_block: number
  changed_block: number
  updated_at: string
  market_cap: string
  market_cap_key: string
  liquidity: string
  liquidity_key: string
  volume_24h: string
  volume_24h_key: string
  trades_24h: number
  trending_score: number
  ranked_at: string
}
