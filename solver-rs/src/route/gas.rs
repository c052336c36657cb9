//! Gas priced in tokenOut, through the market itself: a reference amount of the native token is
//! quoted into tokenOut on the best path, and gas cost scales by that rate (rounded up, so gas is
//! never underestimated).

use super::search::{evaluate, find_paths, DexMask, SearchParams};
use crate::market::{Market, TokenIdx};
use crate::math::full_math::mul_div_rounding_up;
use crate::math::U256;

/// Gas units of a typical two-leg swap: the reference trade is this much gas at the given price,
/// so the conversion rate is measured at the size it will be used at.
const REFERENCE_GAS_UNITS: u64 = 500_000;

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
        let mut paths = Vec::new();
        find_paths(market, &params, reference, &mut paths);
        let best = evaluate(market, paths, reference, None).into_iter().filter_map(|e| e.full.map(|(out, _)| out)).max();
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
