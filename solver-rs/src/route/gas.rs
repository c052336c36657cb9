//! Gas priced in tokenOut, through the market itself: a reference amount of the native token is
//! quoted into tokenOut on the best path, and gas cost scales by that rate (rounded up, so gas is
//! never underestimated).

use super::clock::Deadline;
use super::search::{find_paths, DexMask, SearchParams};
use super::swap_memos::SwapMemos;
use crate::market::{Market, TokenIdx};
use crate::math::full_math::{mul_div_rem, mul_div_rounding_up};
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
    /// tokenOut received for `rate_den` wei of the native token.
    rate_num: U256,
    rate_den: U256,
    /// gasPriceWei · rate_num = q · rate_den + r, as (q, r); None when q does not fit in 256 bits
    /// (every positive cost is then 2^256 − 1). Divided once here: [`GasPricer::cost`] is asked
    /// for every evaluation and every route the pruning tries closed, and the 512-bit division
    /// was about 2 % of a 10,000-pool split quote.
    per_unit: Option<(U256, U256)>,
}

impl GasPricer {
    /// Gas is free: nothing is netted.
    pub fn free() -> GasPricer {
        GasPricer::new(U256::ZERO, U256::ZERO, U256::from(1))
    }

    /// Gas at `gas_price_wei` wei per unit, worth `rate_num` tokenOut per `rate_den` wei of the
    /// native token (`rate_den` > 0).
    fn new(gas_price_wei: U256, rate_num: U256, rate_den: U256) -> GasPricer {
        let per_unit = mul_div_rem(gas_price_wei, rate_num, rate_den).ok();
        GasPricer { rate_num, rate_den, per_unit }
    }

    /// Prices gas in `token_out` through the market; free when the price is zero or when nothing
    /// connects the native token to `token_out`. The search stops at `deadline` (after the direct
    /// pools, see [`find_paths`]); the flag says whether it ran to its end, i.e. whether the
    /// pricer is the market's and may be cached, or only the best rate found in the time.
    pub fn through_market(
        market: &Market,
        native: Option<TokenIdx>,
        token_out: TokenIdx,
        gas_price_wei: U256,
        connectors: &[TokenIdx],
        deadline: &Deadline,
    ) -> (GasPricer, bool) {
        let Some(native) = native else { return (GasPricer::free(), true) };
        if gas_price_wei.is_zero() {
            return (GasPricer::free(), true);
        }
        if native == token_out {
            return (GasPricer::new(gas_price_wei, U256::from(1), U256::from(1)), true);
        }
        let reference = gas_price_wei
            .saturating_mul(U256::from(REFERENCE_GAS_UNITS))
            .max(U256::from(1_000_000_000u64));
        let params = SearchParams {
            token_in: native,
            token_out,
            max_hops: 2,
            connectors: connectors.to_vec(),
            dexes: DexMask::ALL,
            beam: 2,
        };
        let mut found = Vec::new();
        // Its own memos: `market` is the unreplaced one, not the quote's.
        let memos = SwapMemos::default();
        let complete = find_paths(market, &memos, &params, reference, &mut found, deadline);
        let best = found.into_iter().map(|f| f.out).max();
        let pricer = match best {
            Some(out) if !out.is_zero() => GasPricer::new(gas_price_wei, out, reference),
            _ => GasPricer::free(),
        };
        (pricer, complete)
    }

    /// Whether gas is being netted at all.
    pub fn is_priced(&self) -> bool {
        !self.rate_num.is_zero()
    }

    /// The cost of `gas_units` in tokenOut: ceil(gasPriceWei · gas_units · rate), exact, and
    /// 2^256 − 1 when it does not fit (a cost no output can pay).
    ///
    /// The wei amount is never formed on its own: saturating it at 2^256 − 1 would understate the
    /// cost whenever the rate is below one. With gasPriceWei · rate_num = q · rate_den + r, the cost
    /// is gas_units · q + ceil(gas_units · r / rate_den), and the second term is below gas_units.
    pub fn cost(&self, gas_units: u64) -> U256 {
        if !self.is_priced() || gas_units == 0 {
            return U256::ZERO;
        }
        let units = U256::from(gas_units);
        let Some((whole_rate, rest)) = self.per_unit else {
            return U256::MAX;
        };
        let whole = whole_rate.checked_mul(units);
        let part = mul_div_rounding_up(rest, units, self.rate_den).ok();
        whole.zip(part).and_then(|(w, p)| w.checked_add(p)).unwrap_or(U256::MAX)
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
    /// The cached pricer for the pair and gas price, or `price()`'s answer: remembered only when
    /// `price()` says it is complete (a pricer from a search cut short by a quote's deadline is
    /// that quote's best effort, not the market's rate).
    pub fn get_or_price(
        &self,
        token_in: TokenIdx,
        token_out: TokenIdx,
        gas_price_wei: U256,
        price: impl FnOnce() -> (GasPricer, bool),
    ) -> GasPricer {
        let key = (token_in, token_out, gas_price_wei);
        // The lock is not held while pricing, so concurrent quotes never wait on each other's search.
        if let Some(pricer) = self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return pricer.clone();
        }
        let (pricer, complete) = price();
        if !complete {
            return pricer;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_CACHED_PRICERS {
            entries.clear();
        }
        entries.insert(key, pricer.clone());
        pricer
    }
}

#[cfg(test)]
#[path = "gas_tests.rs"]
mod tests;
