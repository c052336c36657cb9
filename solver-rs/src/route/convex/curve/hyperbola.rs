//! Constant-product curves: out = S·n / (R + n) for a net input n, R and S the reserves on the
//! input and output sides.
//!
//! - **V2 and forks**: n = (1 − f)·input. The contract pays ⌊n·S / (R + n)⌋ and keeps the whole
//!   input in its reserves, so the product of the reserves grows with every swap; a sequence of
//!   swaps in one direction therefore pays at most what one swap of their total would (each swap
//!   keeps (R + (1 − f)·a)(S − out) ≥ R·S, and chaining these gives the single swap's condition).
//! - **Solidly volatile**: the fee is floored off the input and moved out of the pool, so
//!   n < (1 − f)·input + 1 per swap and the reserves grow only by n; x·y never falls, so a
//!   sequence pays at most S·N / (R + N) for its total net N < (1 − f)·total + swaps. The curve
//!   allows for [`MAX_SWAPS_PER_POOL`] swaps.

use super::{idle, Response, MAX_SWAPS_PER_POOL};
use crate::pools::cpmm::{CpmmPool, BPS as CPMM_BPS};
use crate::pools::solidly::{SolidlyPool, BPS as SOLIDLY_BPS};

/// S·n / (R + n) with n = keep·input + offset.
pub struct Hyperbola {
    reserve_in: f64,
    reserve_out: f64,
    /// The share of the input that reaches the reserves' price: 1 − fee.
    keep: f64,
    /// Net input the pool may book beyond keep·input (raw units of the input token).
    offset: f64,
}

impl Hyperbola {
    /// A V2-style pair; None when a reserve is empty (the pair refuses every swap).
    pub fn constant_product(pool: &CpmmPool, zero_for_one: bool) -> Option<Hyperbola> {
        let (r_in, r_out) = if zero_for_one {
            (pool.reserve0, pool.reserve1)
        } else {
            (pool.reserve1, pool.reserve0)
        };
        let keep = f64::from(CPMM_BPS.saturating_sub(pool.fee_bps)) / f64::from(CPMM_BPS);
        Hyperbola::new(f64::from(r_in), f64::from(r_out), keep, 0.0)
    }

    /// A Solidly volatile pool; None when a reserve is empty.
    pub fn solidly_volatile(pool: &SolidlyPool, zero_for_one: bool) -> Option<Hyperbola> {
        let (r_in, r_out) = if zero_for_one {
            (pool.reserve0, pool.reserve1)
        } else {
            (pool.reserve1, pool.reserve0)
        };
        let keep = f64::from(SOLIDLY_BPS.saturating_sub(pool.fee_bps)) / f64::from(SOLIDLY_BPS);
        Hyperbola::new(f64::from(r_in), f64::from(r_out), keep, f64::from(MAX_SWAPS_PER_POOL))
    }

    fn new(reserve_in: f64, reserve_out: f64, keep: f64, offset: f64) -> Option<Hyperbola> {
        (reserve_in > 0.0 && reserve_out > 0.0 && keep > 0.0).then_some(Hyperbola {
            reserve_in,
            reserve_out,
            keep,
            offset,
        })
    }

    fn out_for_net(&self, net: f64) -> f64 {
        self.reserve_out * net / (self.reserve_in + net)
    }

    pub fn value(&self, input: f64) -> f64 {
        self.out_for_net(self.keep * input.max(0.0) + self.offset)
    }

    /// d out / d input at zero input: keep·S·R / (R + offset)².
    pub fn first_rate(&self) -> f64 {
        let at = self.reserve_in + self.offset;
        self.keep * self.reserve_out * self.reserve_in / (at * at)
    }

    /// keep·S·R / (R + n)² = rate at R + n = √(keep·S·R / rate).
    pub fn respond(&self, rate: f64) -> Response {
        if rate >= self.first_rate() {
            return idle(self.value(0.0));
        }
        let reach = (self.keep * self.reserve_out * self.reserve_in / rate).sqrt();
        let net = reach - self.reserve_in;
        let input = ((net - self.offset) / self.keep).max(0.0);
        Response { input, output: self.out_for_net(net), slope: reach / (2.0 * rate * self.keep) }
    }
}
