//! Small markets for routing tests, built through the same wire decoding TypeScript uses.

use crate::address::Address;
use crate::market::Market;
use crate::math::U256;
use crate::pools::input::PoolInput;
use crate::route::quote::RouteSettings;
use serde_json::json;

/// The address `0x<n repeated 20 times>` (n < 256), handy for tokens and pools.
pub fn addr(n: u8) -> Address {
    Address([n; 20])
}

/// A constant-product pool of `dex` ("UNIV2" 30 bps, "PANCAKE_V2" 25 bps) between two tokens.
pub fn cp_pool(id: u8, dex: &str, token0: Address, token1: Address, reserve0: u128, reserve1: u128) -> PoolInput {
    serde_json::from_value(json!({
        "id": Address([0xa0 ^ id; 20]).to_string(),
        "dex": dex,
        "tokens": [token0.to_string(), token1.to_string()],
        "state": { "model": "constant_product", "reserves": [reserve0.to_string(), reserve1.to_string()] }
    }))
    .expect("valid test pool")
}

/// A sampled venue of `dex` selling token0 along `zero_for_one` ([amountIn, amountOut] samples);
/// it quotes nothing the other way.
pub fn sampled_pool(id: u8, dex: &str, token0: Address, token1: Address, zero_for_one: &[(U256, U256)]) -> PoolInput {
    let samples: Vec<[String; 2]> = zero_for_one.iter().map(|(x, y)| [x.to_string(), y.to_string()]).collect();
    serde_json::from_value(json!({
        "id": Address([0xa0 ^ id; 20]).to_string(),
        "dex": dex,
        "tokens": [token0.to_string(), token1.to_string()],
        "state": { "model": "sampled", "marginBps": 0, "zeroForOne": samples, "oneForZero": [] }
    }))
    .expect("valid test pool")
}

/// A market holding `pools`.
pub fn market_of(pools: Vec<PoolInput>) -> Market {
    let mut market = Market::default();
    market.upsert(pools).expect("valid test market");
    market
}

/// Routing settings with `native` as the gas token and every token as a possible connector.
pub fn settings(native: Address) -> RouteSettings {
    RouteSettings {
        native_token: Some(native),
        connectors: None,
        default_connector_count: 16,
        default_time_budget_ms: 10_000,
        max_candidates: 8,
        beam: 4,
    }
}

/// A deterministic xorshift generator for reproducible random markets.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo)
    }

    /// Log-uniform in [10^lo_exp, 10^hi_exp).
    pub fn log_amount(&mut self, lo_exp: u32, hi_exp: u32) -> u128 {
        let exp = self.range(u64::from(lo_exp) * 1000, u64::from(hi_exp) * 1000) as f64 / 1000.0;
        10f64.powf(exp) as u128
    }
}
