//! What one pool can pay in one direction, as a concave function of the input in real numbers
//! that is never below the exact model: not for one swap, and not for any sequence of swaps a plan
//! makes on the pool (at most [`MAX_SWAPS_PER_POOL`]), whose outputs it bounds by their total.
//!
//! Each family's curve and the reason it bounds the exact model (docs/solver-optimizer.md, *The
//! bound*):
//! - [`hyperbola`]: constant product (V2 and forks, fee kept in the reserves) and Solidly volatile
//!   (fee floored off the input and moved out);
//! - [`ranges`]: concentrated liquidity, a sum of constant-product segments between initialized
//!   ticks, the fee taken on the input;
//! - [`stable`]: Solidly stable, the x³y + xy³ level curve with the pool's rounding slack;
//! - [`piecewise`]: sampled venues, their fitted curve from the input already consumed; WOOFi's
//!   vault, one linear piece whose rate and width `pools/woofi/bound.rs` proves for the whole vault;
//!   the families whose curve is proven beside their model (`pools/bound_curve.rs`: DODO's PMM
//!   and the E-CLP a first rate up to a cap, LunarBase its anchor's rate less its punishment).
//! - [`PooledSide`]: one pair of a venue of shared state (Curve), read off the venue's budget
//!   (`convex/pooled.rs`). It bounds the pair alone; the dual prices such a venue by its joint
//!   term, never by one side's curve (`dual.rs`).
//!
//! Amounts are raw token units as `f64`, rates raw out per raw in. Only IEEE-exact operations
//! (+, −, ×, ÷, √) are used, so the native and WASM builds compute the same bits.

mod hyperbola;
mod piecewise;
pub(crate) use piecewise::pieces_value;
mod ranges;
mod stable;
#[cfg(test)]
#[path = "curve_tests.rs"]
mod tests;

use super::pooled::{tender, Budget, CoinPrices};
use crate::pools::solidly::Curve as SolidlyCurve;
use crate::pools::woofi::OneWay;
use crate::pools::{two_token_direction, PoolState};
use hyperbola::Hyperbola;
use piecewise::Piecewise;
use ranges::Ranges;
use stable::Stable;

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

/// A concave upper bound on one pool's output in one direction.
pub enum Curve<'m> {
    Hyperbola(Hyperbola),
    Ranges(Ranges<'m>),
    Stable(Stable),
    Piecewise(Piecewise),
    Pooled(PooledSide),
}

/// One pair (coin `t` to coin `u`) of a venue whose coins share one state.
pub struct PooledSide {
    pub budget: Budget,
    pub t: usize,
    pub u: usize,
}

impl PooledSide {
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

impl<'m> Curve<'m> {
    /// The curve of `state` selling token `token_in` for `token_out` (positions in the pool's token
    /// list); None when the pool cannot trade that way at all. A venue of shared state's
    /// ([`Curve::Pooled`]) holds the venue's budget too: the graph keeps one per venue.
    ///
    /// The match names every family: a new one must say how it is bounded before it compiles.
    pub fn of(state: &'m PoolState, token_in: usize, token_out: usize) -> Option<Curve<'m>> {
        Curve::of_in_plan(state, token_in, token_out, OneWay::default())
    }

    /// [`Curve::of`] for a side of a plan that uses `token_in` and `token_out` elsewhere only as
    /// `one_way` says: a venue whose other sides move this side's prices (WOOFi's vault) has a
    /// tighter curve when the plan cannot move them in the trader's favour.
    pub fn of_in_plan(
        state: &'m PoolState,
        token_in: usize,
        token_out: usize,
        one_way: OneWay,
    ) -> Option<Curve<'m>> {
        // The two-token families' curves take the direction; a venue of more tokens has a curve
        // per ordered pair of its tokens, keyed so by the graph's sides.
        let pair = || two_token_direction(token_in, token_out).ok();
        crate::route::clock::count_work();
        match state {
            PoolState::ConstantProduct(pool) => {
                Hyperbola::constant_product(pool, pair()?).map(Curve::Hyperbola)
            }
            PoolState::Solidly(pool) => match pool.curve {
                SolidlyCurve::Volatile => {
                    Hyperbola::solidly_volatile(pool, pair()?).map(Curve::Hyperbola)
                }
                SolidlyCurve::Stable(scales) => {
                    Stable::of(pool, scales, pair()?).map(Curve::Stable)
                }
            },
            PoolState::Concentrated(pool) => Ranges::of(pool, pair()?).map(Curve::Ranges),
            PoolState::Sampled(pool) => {
                pair()?;
                Piecewise::of(pool, token_in).map(Curve::Piecewise)
            }
            PoolState::Woofi(pool) => {
                let (width, rate) = crate::pools::woofi::sequence_piece(
                    pool,
                    token_in,
                    token_out,
                    MAX_SWAPS_PER_POOL,
                    one_way,
                )?;
                Some(Curve::Piecewise(Piecewise::linear(width, rate)))
            }
            PoolState::StableSwap(pool) => {
                let budget = pool.budget()?;
                let ok = token_in != token_out && token_in.max(token_out) < budget.coins.len();
                ok.then_some(Curve::Pooled(PooledSide { budget, t: token_in, u: token_out }))
            }
            PoolState::Dodo(pool) => Some(Curve::Piecewise(Piecewise::from_pieces(
                pool.bound_curve(token_in, token_out)?.pieces(),
            ))),
            PoolState::GyroEclp(pool) => Some(Curve::Piecewise(Piecewise::from_pieces(
                pool.bound_curve(token_in, token_out)?.pieces(),
            ))),
            PoolState::Lunarbase(pool) => Some(Curve::Piecewise(Piecewise::from_pieces(
                pool.bound_curve(token_in, token_out)?.pieces(),
            ))),
            PoolState::MaverickV2(pool) => {
                let pieces = pool.bound_pieces(token_in, token_out);
                (!pieces.is_empty()).then(|| Curve::Piecewise(Piecewise::from_pieces(pieces)))
            }
        }
    }

    /// The bound on the output for `input` raw units in (the total of any swaps in this direction).
    pub fn value(&self, input: f64) -> f64 {
        crate::route::clock::count_work();
        match self {
            Curve::Hyperbola(c) => c.value(input),
            Curve::Ranges(c) => c.value(input),
            Curve::Stable(c) => c.value(input),
            Curve::Piecewise(c) => c.value(input),
            Curve::Pooled(c) => c.budget.pair_value(c.t, c.u, input),
        }
    }

    /// The input maximising `value(input) − rate·input` (`rate` > 0), its output and slope.
    pub fn respond(&self, rate: f64) -> Response {
        crate::route::clock::count_work();
        match self {
            Curve::Hyperbola(c) => c.respond(rate),
            Curve::Ranges(c) => c.respond(rate),
            Curve::Stable(c) => c.respond(rate),
            Curve::Piecewise(c) => c.respond(rate),
            Curve::Pooled(c) => c.respond(rate),
        }
    }

    /// The marginal rate of the first unit of input (raw out per raw in): no trade pays below it.
    pub fn first_rate(&self) -> f64 {
        match self {
            Curve::Hyperbola(c) => c.first_rate(),
            Curve::Ranges(c) => c.first_rate(),
            Curve::Stable(c) => c.first_rate(),
            Curve::Piecewise(c) => c.first_rate(),
            Curve::Pooled(c) => c.budget.first_rate(c.t, c.u),
        }
    }
}

/// A response with no trade: the curve's value at zero input (positive only for the slack some
/// families allow for rounding).
fn idle(output_at_zero: f64) -> Response {
    Response { input: 0.0, output: output_at_zero, slope: 0.0 }
}
