//! The pool's marginal rate and the bound curve the convex search uses: one linear piece per tick
//! holding output in the walk's direction, in the walk's order, each at the best rate left in its
//! tick (the first at its current price, the others at their near edge) and as wide as it takes to
//! pay the tick's whole output reserve.
//!
//! Why it bounds any run of swaps in one direction (say A in, the walk going up; B in mirrors it
//! with the tick's upper edge): no such swap reaches a tick below the active one, and a tick's B
//! reserve only falls, so all the swaps together take at most a tick's starting reserve out of it.
//! What they take out of tick k is at most (1 − fee)·10^36/lower_k² times what they spent there:
//! - when the input fits in the tick, the output is ⌊x·⌊10^36/p⌋ / (⌈x·10^18/(L+1)⌉ + p)⌋ ≤
//!   x·10^36/p², for x = ⌊amount·(1 − fee)⌋ ≤ amount·(1 − fee), and the price p inside the tick
//!   is held at or above the tick's lower edge;
//! - when it empties the tick, it pays the reserve r for the input `room` that takes r out,
//!   ⌈r·p / (⌊10^36/p⌋ − ⌈r·10^18/L⌉)⌉ ≥ r·p²/10^36 (the chain reverts if the denominator is not
//!   positive), and spends room plus ⌈room·fee/(1 − fee)⌉ ≥ room/(1 − fee).
//!
//! So the total pays at most the best allocation of its input across the ticks, each within its
//! rate and reserve; the rates fall along the walk (the edges' prices rise), so that allocation is
//! the pieces taken in order. The token amounts are the AMM's over the scales, the output floored.
//! No rounding of the pool pays above these real-number figures, so the only margin is for the
//! floating-point evaluation. Tested in `maverick_tests.rs`.
//!
//! The first tick the walk swaps in is bounded at the price the pool computes from its reserves
//! (not at its best edge, lower for A in): a run of swaps in one direction only pushes that price
//! the walk's way (A in: up, so the rate 1/p² falls), in real numbers a rising function of the
//! reserves' ratio; the pool's floors can move the recomputed price back a little, by at most the
//! margin derived in `price_drift.rs` from each floor of `getTickL` and `getSqrtPrice` (away from
//! dust ticks mostly the price's own floors, about 4·10^-12 at a price of 10^-6; at most
//! [`MAX_DRIFT`]; where the derivation does not apply or gives more, that edge, which holds for any
//! state). `price_drift_tests.rs` checks it against greedy runs that pick, at each step, the swap
//! that pushes the recomputed price furthest back. Bounded at that edge, as before, the two
//! directions' first rates multiplied to (1 − fee_A)(1 − fee_B)·(upper/lower)², above one where
//! the fees are below the tick's width, and the convex relaxation took the round trip for a gain
//! (bounds up to 1,000× the plan); now they multiply to (1 − fee_A)(1 − fee_B)(1 + margin_A)
//! (1 + margin_B), below one for any fee above the margins.

#[cfg(doc)]
use super::price_drift::MAX_DRIFT;
use super::price_drift::{drift_margin, TickStart};
use super::tick_math::ONE;
use super::{MaverickPool, Tick};
use crate::math::U256;
use crate::pools::two_token_direction;

/// Relative margin on rates and reserves for the floating-point evaluation.
const MARGIN: f64 = 1e-12;

impl MaverickPool {
    /// Raw out per raw in, (1 − fee) times the square of the edge's price (A in: 1/lower², B in:
    /// upper²), over the scales.
    fn edge_rate(&self, token_a_in: bool, edge: f64) -> f64 {
        let side = usize::from(!token_a_in);
        let keep = 1.0 - f64::from(self.fees[side]) / f64::from(ONE);
        let (scale_in, scale_out) =
            (f64::from(self.scales[side]), f64::from(self.scales[side ^ 1]));
        let ratio = edge / f64::from(ONE);
        let price = if token_a_in { 1.0 / (ratio * ratio) } else { ratio * ratio };
        keep * price * scale_in / scale_out
    }

    /// The bound's pieces for `token_in` → `token_out` (raw units), rates falling; empty for a bad
    /// pair or a direction with nothing to pay.
    pub fn bound_pieces(&self, token_in: usize, token_out: usize) -> Vec<(f64, f64)> {
        let Ok(token_a_in) = two_token_direction(token_in, token_out) else { return Vec::new() };
        let out_side = usize::from(token_a_in);
        let scale_out = f64::from(self.scales[out_side]);
        let ahead: Box<dyn Iterator<Item = _>> = if token_a_in {
            Box::new(self.ticks.iter().filter(|t| t.index >= self.active_tick))
        } else {
            Box::new(self.ticks.iter().rev().filter(|t| t.index <= self.active_tick))
        };
        // The first tick the walk swaps in is bounded at the price the pool computes from its
        // reserves (held inside its edges); every later one at its near edge.
        let first = self.next_filled(self.active_tick, token_a_in).map(|k| self.ticks[k].index);
        ahead
            .filter(|t| !t.reserves[out_side].is_zero())
            .map(|t| {
                let near = if token_a_in { t.lower } else { t.upper };
                let edge_rate = self.edge_rate(token_a_in, f64::from(near)) * (1.0 + MARGIN);
                let rate = if Some(t.index) == first {
                    self.first_rate(t, token_a_in).map_or(edge_rate, |rate| rate.min(edge_rate))
                } else {
                    edge_rate
                };
                let cap = f64::from(t.reserves[out_side]) / scale_out * (1.0 + MARGIN);
                (cap / rate, rate)
            })
            .filter(|(width, rate)| *rate > 0.0 && width.is_finite())
            .collect()
    }

    /// The first tick's rate at the price the pool computes from its reserves, raised by the
    /// drift that price can take over a run of swaps; None where that is not derived.
    fn first_rate(&self, tick: &Tick, token_a_in: bool) -> Option<f64> {
        let (price, drift) = self.price_and_drift(tick, token_a_in)?;
        Some(self.edge_rate(token_a_in, f64::from(price)) * (1.0 + drift) * (1.0 + MARGIN))
    }

    /// The price the pool computes from the tick's reserves and the relative margin on the rate
    /// at it that covers any run of swaps in the direction (`price_drift.rs`).
    pub(super) fn price_and_drift(&self, tick: &Tick, token_a_in: bool) -> Option<(U256, f64)> {
        let quote = self.quote_of(tick, token_a_in).ok()?;
        let start = TickStart {
            lower: f64::from(tick.lower),
            upper: f64::from(tick.upper),
            reserves: tick.reserves.map(f64::from),
            liquidity: f64::from(quote.liquidity),
        };
        Some((quote.price, drift_margin(&start, token_a_in)?))
    }

    /// The marginal rate at zero size (raw out per raw in, fee taken) in the first tick the walk
    /// would swap in; None for a bad pair or nothing to pay.
    pub fn marginal_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        let token_a_in = two_token_direction(token_in, token_out).ok()?;
        let out_side = usize::from(token_a_in);
        let k = self.next_filled(self.active_tick, token_a_in)?;
        let tick = &self.ticks[k];
        if tick.reserves[out_side].is_zero() {
            // The walk crosses this tick for nothing: the rate is the next one's at best.
            return self.bound_pieces(token_in, token_out).first().map(|p| p.1);
        }
        let quote = self.quote_of(tick, token_a_in).ok()?;
        let rate = self.edge_rate(token_a_in, f64::from(quote.price));
        (rate.is_finite() && rate > 0.0).then_some(rate)
    }
}
