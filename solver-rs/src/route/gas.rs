//! Gas priced in tokenOut, through the market itself: a reference amount of the native token is
//! quoted into tokenOut on the best path, and gas cost scales by that rate (rounded up, so gas is
//! never underestimated).

use super::search::{find_paths, DexMask, SearchParams};
use crate::market::{Market, TokenIdx};
use crate::math::full_math::mul_div_rounding_up;
use crate::math::U256;
use std::collections::HashMap;
use std::sync::Mutex;

/// Gas units of a typical two-leg swap: the reference trade is this much gas at the given price,
/// so the conversion rate is measured at the size it will be used at.
const REFERENCE_GAS_UNITS: u64 = 500_000;

/// Entries kept before the cache starts over (a market rarely sees this many pairs in a block).
const MAX_CACHED_PRICERS: usize = 1024;

/// Converts gas units into tokenOut.
#[derive(Clone, Debug)]
pub struct GasPricer {
    gas_price_wei: U256,
    /// tokenOut received for `rate_den` wei of the native token.
    rate_num: U256,
    rate_den: U256,
}

impl GasPricer {
    /// Gas is free: nothing is netted.
    pub fn free() -> GasPricer {
        GasPricer { gas_price_wei: U256::ZERO, rate_num: U256::ZERO, rate_den: U256::from(1) }
    }

    /// Prices gas in `token_out` through the market; free when the price is zero or when nothing
    /// connects the native token to `token_out`.
    pub fn through_market(market: &Market, native: Option<TokenIdx>, token_out: TokenIdx, gas_price_wei: U256, connectors: &[TokenIdx]) -> GasPricer {
        let Some(native) = native else { return GasPricer::free() };
        if gas_price_wei.is_zero() {
            return GasPricer::free();
        }
        if native == token_out {
            return GasPricer { gas_price_wei, rate_num: U256::from(1), rate_den: U256::from(1) };
        }
        let reference = gas_price_wei.saturating_mul(U256::from(REFERENCE_GAS_UNITS)).max(U256::from(1_000_000_000u64));
        let params = SearchParams {
            token_in: native,
            token_out,
            amount_in: reference,
            max_hops: 2,
            connectors: connectors.to_vec(),
            dexes: DexMask::ALL,
            beam: 2,
        };
        let mut found = Vec::new();
        find_paths(market, &params, reference, &mut found);
        let best = found.into_iter().map(|f| f.out).max();
        match best {
            Some(out) if !out.is_zero() => GasPricer { gas_price_wei, rate_num: out, rate_den: reference },
            _ => GasPricer::free(),
        }
    }

    /// Whether gas is being netted at all.
    pub fn is_priced(&self) -> bool {
        !self.rate_num.is_zero()
    }

    /// The cost of `gas_units` in tokenOut, rounded up.
    pub fn cost(&self, gas_units: u64) -> U256 {
        if !self.is_priced() || gas_units == 0 {
            return U256::ZERO;
        }
        let wei = self.gas_price_wei.saturating_mul(U256::from(gas_units));
        mul_div_rounding_up(wei, self.rate_num, self.rate_den).unwrap_or(U256::MAX)
    }
}

/// The pricers of recent quotes, until the market changes. Pricing is a path search of its own (as
/// costly as a quote without splitting), and its answer depends only on the market, the pair (the
/// connectors exclude both tokens) and the gas price; the owner clears it on every market update.
#[derive(Debug, Default)]
pub struct GasPricers {
    entries: Mutex<HashMap<(TokenIdx, TokenIdx, U256), GasPricer>>,
}

impl GasPricers {
    /// The cached pricer for the pair and gas price, or `price()`'s answer, remembered.
    pub fn get_or_price(&self, token_in: TokenIdx, token_out: TokenIdx, gas_price_wei: U256, price: impl FnOnce() -> GasPricer) -> GasPricer {
        let key = (token_in, token_out, gas_price_wei);
        // The lock is not held while pricing, so concurrent quotes never wait on each other's search.
        if let Some(pricer) = self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return pricer.clone();
        }
        let pricer = price();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_CACHED_PRICERS {
            entries.clear();
        }
        entries.insert(key, pricer.clone());
        pricer
    }

    /// Forgets every pricer (the market changed).
    pub fn clear(&mut self) {
        self.entries.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
    }
}
