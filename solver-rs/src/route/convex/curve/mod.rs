//! What one pool can pay in one direction, as a concave function of the input in real numbers
//! that is never below the exact model: not for one swap, and not for any sequence of swaps a plan
//! makes on the pool (at most [`MAX_SWAPS_PER_POOL`]), whose outputs it bounds by their total.
//!
//! Each family builds its curve and proves beside its model why it bounds it
//! ([`PoolModel::side_curve`], docs/solver-optimizer.md, *The bound*); this module holds only what
//! the bound needs of a curve, a [`Shape`] it evaluates, and the [`Curve`] that dispatches to the
//! shapes: the shared ones (`pools/shape`: the hyperbola of constant product and Solidly volatile,
//! linear pieces), the ones one family alone uses (`pools/clmm/ranges.rs`,
//! `pools/solidly/stable_bound.rs`), and [`PooledSide`]: one pair of a venue of shared state
//! (Curve), read off the venue's budget (`convex/pooled.rs`). A pooled side bounds the pair alone;
//! the dual prices such a venue by its joint term, never by one side's curve (`dual.rs`).
//!
//! Amounts are raw token units as `f64`, rates raw out per raw in. Only IEEE-exact operations
//! (+, −, ×, ÷, √) are used, so the native and WASM builds compute the same bits.

#[cfg(test)]
#[path = "curve_tests.rs"]
mod tests;

use super::pooled::{tender, Budget, CoinPrices};
use super::pooled_vault_hop::HopTerm;
use crate::pools::clmm::Ranges;
use crate::pools::shape::{Hyperbola, Piecewise};
use crate::pools::solidly::Stable;
use crate::pools::woofi::OneWay;
use crate::pools::{PoolModel, PoolState};

/// The most swaps one plan makes on one pool: a plan has at most this many routes (its candidate
/// paths are capped at this many, `quote.rs`), and a route goes through a pool once. Solidly
/// floors its fee, so each swap may book one raw unit of net input more than the fee rate says:
/// the curves allow for this many. The allowance is the bound's whole gap on small trades of a
/// token with few decimals (64 raw units of cbBTC are 3.8 bps of a $100 trade), so it is kept
/// near what plans use: the most routes a plan of the quality bench has is 51 (10,000 pools,
/// 3-hop, 100×), and at 2 or 3 hops the transaction gas cap binds before 64 routes.
pub const MAX_SWAPS_PER_POOL: u32 = 64;

/// The best trade against fixed prices: the input that maximises `output − rate·input`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Response {
    /// Raw units of the input token (0: no trade pays).
    pub input: f64,
    /// The curve at `input`, raw units of the output token.
    pub output: f64,
    /// How fast the input falls as the rate rises, −d input / d rate (≥ 0): exact where the curve
    /// is smooth, and where it has a corner (a sampled breakpoint, an empty tick range) the width
    /// of the next piece over the change of slope, a stand-in the dual's Newton steps use.
    pub slope: f64,
}

/// What the bound asks of a curve of one side (raw units in, raw units out).
pub trait Shape {
    /// The bound on the output for `input` raw units in (the total of any swaps in this direction).
    fn value(&self, input: f64) -> f64;
    /// The input maximising `value(input) − rate·input` (`rate` > 0), its output and slope.
    fn respond(&self, rate: f64) -> Response;
    /// The marginal rate of the first unit of input (raw out per raw in): no trade pays below it.
    fn first_rate(&self) -> f64;
}

/// The list of shapes, one line each (`Variant(Type)`): it generates [`Curve`] and its [`Shape`],
/// each method the shape's own through one `match`. A family whose curve is one of these adds
/// nothing here.
macro_rules! shapes {
    ($($(#[$doc:meta])* $variant:ident($shape:ty),)+) => {
        /// A concave upper bound on one pool's output in one direction.
        pub enum Curve {
            $($(#[$doc])* $variant($shape),)+
        }

        impl Shape for Curve {
            fn value(&self, input: f64) -> f64 {
                crate::route::clock::count_work();
                match self {
                    $(Curve::$variant(c) => c.value(input),)+
                }
            }

            fn respond(&self, rate: f64) -> Response {
                crate::route::clock::count_work();
                match self {
                    $(Curve::$variant(c) => c.respond(rate),)+
                }
            }

            fn first_rate(&self) -> f64 {
                match self {
                    $(Curve::$variant(c) => c.first_rate(),)+
                }
            }
        }
    };
}

shapes! {
    Hyperbola(Hyperbola),
    Ranges(Ranges),
    Stable(Stable),
    Piecewise(Piecewise),
    Pooled(PooledSide),
}

/// One pair (coin `t` to coin `u`) of a venue whose coins share one state.
pub struct PooledSide {
    pub budget: Budget,
    pub t: usize,
    pub u: usize,
    /// The family's per-hop constraint beside the budget, where it has one (WOOFi's vault:
    /// `convex/pooled_vault_hop.rs`).
    pub hops: Option<HopTerm>,
}

impl Shape for PooledSide {
    fn value(&self, input: f64) -> f64 {
        self.budget.pair_value(self.t, self.u, input)
    }

    fn first_rate(&self) -> f64 {
        self.budget.first_rate(self.t, self.u)
    }

    fn respond(&self, rate: f64) -> Response {
        let mut prices = vec![CoinPrices::default(); self.budget.coins.len()];
        prices[self.t].tender = Some(rate);
        prices[self.u].receive = Some(1.0);
        let joint = self.budget.joint(&prices);
        let size = self.budget.coins.len().saturating_mul(2);
        let at = tender(self.t);
        Response {
            input: joint.inputs[self.t],
            output: joint.outputs[self.u],
            slope: joint.hessian[at.saturating_mul(size).saturating_add(at)],
        }
    }
}

impl Curve {
    /// The curve of `state` selling token `token_in` for `token_out` (positions in the pool's token
    /// list); None when the pool cannot trade that way at all. A venue of shared state's
    /// ([`Curve::Pooled`]) holds the venue's budget too: the graph keeps one per venue.
    pub fn of(state: &PoolState, token_in: usize, token_out: usize) -> Option<Curve> {
        Curve::of_in_plan(state, token_in, token_out, OneWay::default())
    }

    /// [`Curve::of`] for a side of a plan that uses `token_in` and `token_out` elsewhere only as
    /// `one_way` says: a venue whose other sides move this side's prices (WOOFi's vault) has a
    /// tighter curve when the plan cannot move them in the trader's favour.
    pub fn of_in_plan(
        state: &PoolState,
        token_in: usize,
        token_out: usize,
        one_way: OneWay,
    ) -> Option<Curve> {
        crate::route::clock::count_work();
        state.side_curve(token_in, token_out, one_way)
    }

    /// [`Shape::value`], callable without the trait in scope.
    pub fn value(&self, input: f64) -> f64 {
        Shape::value(self, input)
    }

    /// [`Shape::respond`], callable without the trait in scope.
    pub fn respond(&self, rate: f64) -> Response {
        Shape::respond(self, rate)
    }

    /// [`Shape::first_rate`], callable without the trait in scope.
    pub fn first_rate(&self) -> f64 {
        Shape::first_rate(self)
    }
}

/// A response with no trade: the curve's value at zero input (positive only for the slack some
/// families allow for rounding).
pub fn idle(output_at_zero: f64) -> Response {
    Response { input: 0.0, output: output_at_zero, slope: 0.0 }
}
