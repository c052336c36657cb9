//! The Wooracle (WooracleV2_2) as the vault reads it at one block: per base, the posted price,
//! spread and coefficient, the Chainlink reference it must stay near, and the guardian's range;
//! `price()`'s freshness and bound rules, and `postPrice`'s spread widening when a swap moves the
//! price. The block's timestamp is fixed for a quote, so whether the posted prices are fresh is one
//! flag for the whole oracle.

use super::arith::{add, div, mul, sub, truncate, E18};
use crate::math::U256;
use crate::pools::PoolError;

/// One base token's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseOracle {
    /// `infos(base).price` (uint128), 8 decimals of quote per base; moved by every swap.
    pub price: U256,
    /// `infos(base).coeff` (uint64): the price impact per quote unit, 1e18 = 100 %.
    pub coeff: U256,
    /// `infos(base).spread` (uint64), 1e18 = 100 %; only ever widened by a swap.
    pub spread: U256,
    /// `cloPrice(base)`: the Chainlink reference in the oracle's decimals (fixed within a block).
    pub ref_price: U256,
    /// `clOracles(base).cloPreferred`: a stale posted price falls back to the reference.
    pub clo_preferred: bool,
    /// `priceRanges(base)`: a feasible price must lie strictly inside (min, max).
    pub range_min: U256,
    pub range_max: U256,
}

/// What `state(base)` gives the pool: the price (uint128 of `price()`), spread and coeff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriceState {
    pub price: U256,
    pub spread: U256,
    pub coeff: U256,
}

impl BaseOracle {
    /// `price(base)` and `state(base)`: the price the pool trades at, or why the pool refuses
    /// (`!ORACLE_FEASIBLE`, or the guardian's range reverting). `window_open` is
    /// `block.timestamp <= timestamp + staleDuration`; `bound` the oracle's, 1e18 = 100 %.
    pub fn state(&self, window_open: bool, bound: U256) -> Result<PriceState, PoolError> {
        let wo = self.price;
        let fresh = !wo.is_zero() && window_open;
        // Evaluated whether or not the posted price is fresh, as the contract does (and reverts
        // with its overflow), short-circuiting as Solidity's `&&` does.
        let in_bound = !self.ref_price.is_zero()
            && div(mul(self.ref_price, sub(E18, bound)?)?, E18)? <= wo
            && wo <= div(mul(self.ref_price, add(E18, bound)?)?, E18)?;
        let (out, feasible) = if fresh {
            (wo, in_bound)
        } else {
            let out = if self.clo_preferred { self.ref_price } else { U256::ZERO };
            (out, !out.is_zero())
        };
        if !feasible {
            return Err(PoolError::Refused(format!(
                "the oracle's price is not feasible: posted {wo} ({}), Chainlink reference {}, bound {bound}",
                if fresh { "fresh" } else { "stale" },
                self.ref_price
            )));
        }
        if out <= self.range_min || out >= self.range_max {
            return Err(PoolError::Refused(format!(
                "the oracle's price {out} is outside the guardian's range ({}, {})",
                self.range_min, self.range_max
            )));
        }
        Ok(PriceState { price: truncate(out, 128), spread: self.spread, coeff: self.coeff })
    }

    /// `postPrice(base, price)` as the pool calls it after a swap: the spread widens to what the
    /// move from the stored price implies, when that is wider; then the price is stored.
    pub fn post_price(&mut self, new_price: U256) -> Result<(), PoolError> {
        let (pre_p, pre_s) = (self.price, self.spread);
        if !pre_p.is_zero() && !new_price.is_zero() && pre_s < E18 {
            let (hi, lo) = if new_price >= pre_p { (new_price, pre_p) } else { (pre_p, new_price) };
            let anti = div(div(mul(mul(E18, E18)?, lo)?, hi)?, sub(E18, pre_s)?)?;
            if anti < E18 {
                let moved = truncate(sub(E18, anti)?, 64);
                if moved > pre_s {
                    self.spread = moved;
                }
            }
        }
        self.price = new_price;
        Ok(())
    }
}
