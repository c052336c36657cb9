//! Concentrated liquidity as a sum of bounded constant-product segments, one per liquidity range
//! between initialized ticks, walked from the pool's price in the swap's direction.
//!
//! On the axis z = 1/√P selling token0 (P = token1 per token0, so z rises as the price falls) and
//! z = √P selling token1, a range of liquidity L from z_a to z_b takes L·(z_b − z_a) of net input
//! and pays L·(1/z_a − 1/z_b): both directions are the same constant-product segment. The fee is
//! taken on the input (gross = net / (1 − fee)) and the marginal rate at z is (1 − fee) / z².
//!
//! Why it bounds the exact swap: every step of the contracts rounds the fee up and the output down,
//! and moves the price no further than the net input in real numbers would, so the price reached
//! is never past the real one and the output is at most L times the real move; a later swap starts
//! where the earlier one left the price, so a sequence pays at most the curve at its total input.
//! Empty ranges (L = 0) are crossed for nothing: the curve has a corner there.

use super::tick_math::{MAX_SQRT_RATIO, MIN_SQRT_RATIO};
use super::ClPool;
use crate::math::U256;
use crate::route::convex::curve::{idle, Response, Shape};
use std::cell::RefCell;

/// 2^96, the Q64.96 scale of `sqrtPriceX96`.
const Q96: f64 = 79_228_162_514_264_337_593_543_950_336.0;
const PIPS: f64 = 1_000_000.0;

/// One liquidity range on the z axis, with what the ranges before it take and pay in total.
#[derive(Clone, Copy, Debug)]
struct Range {
    z_start: f64,
    z_end: f64,
    liquidity: f64,
    net_before: f64,
    out_before: f64,
}

/// Where the walk over initialized ticks stands.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    tick: i32,
    liquidity: i128,
    z: f64,
}

/// The ranges walked so far, extended on demand (a pool may hold thousands of ticks; a quote
/// needs the few its trades reach).
struct Walk {
    ranges: Vec<Range>,
    /// None once the walk reached the router's price limit.
    next: Option<Cursor>,
}

/// A concentrated pool's curve in one direction. It holds its own copy of the pool (a few words:
/// the ticks are shared by `Arc`), so a curve outlives the market view it was built from and one
/// snapshot's graphs can serve several quotes (`route/bound_memos.rs`).
pub struct Ranges {
    pool: ClPool,
    zero_for_one: bool,
    /// 1 − fee (the direction's swap fee, protocol fee included).
    keep: f64,
    walk: RefCell<Walk>,
}

impl Ranges {
    /// None when the fee takes everything.
    pub fn of(pool: &ClPool, zero_for_one: bool) -> Option<Ranges> {
        let keep = 1.0 - f64::from(pool.swap_fee_pips(zero_for_one)) / PIPS;
        if keep <= 0.0 {
            return None;
        }
        let state = pool.state();
        let liquidity = i128::try_from(state.liquidity).unwrap_or(i128::MAX);
        let start =
            Cursor { tick: state.tick, liquidity, z: z_of(state.sqrt_price_x96, zero_for_one) };
        Some(Ranges {
            pool: pool.clone(),
            zero_for_one,
            keep,
            walk: RefCell::new(Walk { ranges: Vec::new(), next: Some(start) }),
        })
    }

    /// The range at position `index` of the walk, walking further if needed; None past the limit.
    fn range(&self, index: usize) -> Option<Range> {
        let mut walk = self.walk.borrow_mut();
        while walk.ranges.len() <= index {
            let cursor = walk.next?;
            let (net_before, out_before) = walk.ranges.last().map_or((0.0, 0.0), |r| {
                let l = r.liquidity;
                let net = l * (r.z_end - r.z_start);
                (r.net_before + net, r.out_before + paid(net, r.z_start, r.z_end))
            });
            let (boundary, next) = self.step(cursor);
            let z_end = boundary.max(cursor.z);
            let liquidity = cursor.liquidity.max(0) as f64;
            walk.ranges.push(Range { z_start: cursor.z, z_end, liquidity, net_before, out_before });
            walk.next = next.map(|n| Cursor { z: z_end, ..n });
        }
        Some(walk.ranges[index])
    }

    /// From `cursor`, the z of the next initialized tick (or of the router's limit) and the cursor
    /// after crossing it (None at the limit).
    fn step(&self, cursor: Cursor) -> (f64, Option<Cursor>) {
        // The tick list's table holds each initialized tick's TickMath price.
        let crossed = if self.zero_for_one {
            self.pool.ticks.initialized_at_or_below(cursor.tick).map(|t| {
                let after = t.tick.saturating_sub(1);
                (t.sqrt_price_x96, after, cursor.liquidity.saturating_sub(t.liquidity_net))
            })
        } else {
            self.pool.ticks.initialized_above(cursor.tick).map(|t| {
                (t.sqrt_price_x96, t.tick, cursor.liquidity.saturating_add(t.liquidity_net))
            })
        };
        let limit = if self.zero_for_one {
            MIN_SQRT_RATIO.saturating_add(U256::from(1))
        } else {
            MAX_SQRT_RATIO.saturating_sub(U256::from(1))
        };
        match crossed {
            Some((sqrt_price, tick, liquidity)) => {
                (z_of(sqrt_price, self.zero_for_one), Some(Cursor { tick, liquidity, z: 0.0 }))
            }
            None => (z_of(limit, self.zero_for_one), None),
        }
    }

    /// The output for `net` input, walking the ranges.
    fn out_for_net(&self, net: f64) -> f64 {
        let mut index = 0;
        let mut last_out = 0.0;
        while let Some(r) = self.range(index) {
            let capacity = r.liquidity * (r.z_end - r.z_start);
            if net <= r.net_before + capacity {
                if r.liquidity == 0.0 {
                    return r.out_before;
                }
                let z = r.z_start + (net - r.net_before) / r.liquidity;
                return r.out_before + paid(net - r.net_before, r.z_start, z);
            }
            last_out = r.out_before + paid(capacity, r.z_start, r.z_end);
            index = index.saturating_add(1);
        }
        // Past the price limit the pool pays nothing more (the exact swap refuses such an input).
        last_out
    }

    /// The liquidity of the first non-empty range after `index` (0 if none).
    fn next_liquidity(&self, index: usize) -> f64 {
        let mut at = index.saturating_add(1);
        while let Some(r) = self.range(at) {
            if r.liquidity > 0.0 {
                return r.liquidity;
            }
            at = at.saturating_add(1);
        }
        0.0
    }
}

impl Shape for Ranges {
    fn value(&self, input: f64) -> f64 {
        self.out_for_net(self.keep * input.max(0.0))
    }

    fn first_rate(&self) -> f64 {
        let mut index = 0;
        while let Some(r) = self.range(index) {
            if r.liquidity > 0.0 && r.z_end > r.z_start {
                return self.keep / (r.z_start * r.z_start);
            }
            index = index.saturating_add(1);
        }
        0.0
    }

    /// The trade stops where the marginal rate (1 − fee)/z² meets `rate`: z* = √((1 − fee)/rate).
    fn respond(&self, rate: f64) -> Response {
        let target = (self.keep / rate).sqrt();
        let mut index = 0;
        // Net input taken and output paid by the ranges walked whole.
        let (mut net, mut out) = (0.0, 0.0);
        while let Some(r) = self.range(index) {
            if target <= r.z_end {
                if target <= r.z_start {
                    break;
                }
                let step = r.liquidity * (target - r.z_start);
                let (net, out) =
                    (r.net_before + step, r.out_before + paid(step, r.z_start, target));
                // Inside a range the input falls smoothly with the rate; in an empty one the
                // optimum sits on the corner before it, and the next range stands in.
                let liquidity =
                    if r.liquidity > 0.0 { r.liquidity } else { self.next_liquidity(index) };
                let slope = liquidity * target / (2.0 * rate * self.keep);
                return Response { input: net / self.keep, output: out, slope };
            }
            let step = r.liquidity * (r.z_end - r.z_start);
            (net, out) = (r.net_before + step, r.out_before + paid(step, r.z_start, r.z_end));
            index = index.saturating_add(1);
        }
        // The rate is met before the walk's position, or only past the price limit.
        match net > 0.0 {
            true => Response { input: net / self.keep, output: out, slope: 0.0 },
            false => idle(0.0),
        }
    }
}

/// What a range pays for `net` input moving z from `z_a` to `z_b`: L·(1/z_a − 1/z_b), written as
/// net / (z_a·z_b) because the difference of inverses loses every digit for small trades.
fn paid(net: f64, z_a: f64, z_b: f64) -> f64 {
    if net > 0.0 {
        net / (z_a * z_b)
    } else {
        0.0
    }
}

/// The z coordinate of a Q64.96 square-root price: its inverse selling token0, itself selling token1.
fn z_of(sqrt_price_x96: U256, zero_for_one: bool) -> f64 {
    let sqrt_price = f64::from(sqrt_price_x96) / Q96;
    if zero_for_one {
        1.0 / sqrt_price
    } else {
        sqrt_price
    }
}
