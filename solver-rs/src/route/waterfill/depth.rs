//! Fynd's pool depth, the liquidity half of its path score: the largest input a pool direction
//! takes before its spot price moves by more than [`DEPTH_SLIPPAGE`] (Fynd's
//! `PoolDepthComputation`, 1 % by default, found by bisection on the pool's own swap).
//!
//! Fynd computes depths once per block, apart from any solve; here they are computed on first use
//! and kept until the market changes (the solver clears them on every update, as it does its gas
//! pricers), so a solve's time does not include them once the block's first quote has paid.

use crate::market::{Hop, Market, PoolIdx};
use crate::math::bisect::midpoint;
use crate::math::U256;
use crate::pools::PoolModel;
use std::collections::HashMap;
use std::sync::Mutex;

/// Fynd's default slippage threshold for depths: 1 % of the spot price.
pub const DEPTH_SLIPPAGE: f64 = 0.01;
/// Inputs are searched up to 2^this raw units.
const MAX_DOUBLINGS: u32 = 200;
/// The bisection stops once its bracket is within this fraction of the amount.
const RELATIVE_PRECISION: f64 = 1e-6;

/// Depths of pool directions on the market as it is; cleared whenever it changes.
#[derive(Debug, Default)]
pub struct Depths {
    entries: Mutex<HashMap<(PoolIdx, u8, u8), Option<f64>>>,
}

impl Depths {
    /// The depth of `hop` (raw units of its input token), None when no input keeps the price within
    /// the threshold.
    pub fn get(&self, market: &Market, hop: Hop) -> Option<f64> {
        let key = (hop.pool, hop.token_in, hop.token_out);
        if let Some(depth) = self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return *depth;
        }
        let depth = depth_of(market, hop);
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).insert(key, depth);
        depth
    }

    /// Forgets every depth (the market changed).
    pub fn clear(&mut self) {
        self.entries.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

/// The largest input whose swap leaves the spot price within [`DEPTH_SLIPPAGE`] of where it was:
/// doubling from one raw unit until a swap moves it further (or the pool refuses), then bisecting.
fn depth_of(market: &Market, hop: Hop) -> Option<f64> {
    let state = &market.pool(hop.pool).state;
    let (i, o) = (hop.token_in as usize, hop.token_out as usize);
    let spot = state.spot_price(i, o);
    if !(spot.is_finite() && spot > 0.0) {
        return None;
    }
    // Some(true): within the threshold; Some(false): beyond it; None: the pool refuses the input.
    let within = |amount: U256| {
        state
            .apply(i, o, amount)
            .ok()
            .map(|(_, next)| ((next.spot_price(i, o) - spot) / spot).abs() <= DEPTH_SLIPPAGE)
    };
    let mut valid: Option<U256> = None;
    let mut beyond: Option<U256> = None;
    let mut amount = U256::from(1);
    for _ in 0..MAX_DOUBLINGS {
        match within(amount) {
            Some(true) => valid = Some(amount),
            // A refusal before any valid amount is below the pool's range (Fynd raises the low end).
            None if valid.is_none() => {}
            _ => {
                beyond = Some(amount);
                break;
            }
        }
        // Past 2^255 there is nothing left to double.
        let Some(doubled) = amount.checked_shl(1) else { break };
        amount = doubled;
    }
    let (mut low, Some(mut high)) = (valid?, beyond) else { return valid.map(f64::from) };
    // high > low throughout: the differences never saturate.
    while high.saturating_sub(low) > U256::from(1)
        && f64::from(high.saturating_sub(low)) > f64::from(low) * RELATIVE_PRECISION
    {
        let mid = midpoint(low, high);
        match within(mid) {
            Some(true) => low = mid,
            _ => high = mid,
        }
    }
    Some(f64::from(low))
}
