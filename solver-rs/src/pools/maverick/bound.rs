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
//! (not at its far edge): a run of swaps in one direction only pushes that price the walk's way (A
//! in: up, so the rate 1/p² falls), in real numbers a rising function of the reserves' ratio; the
//! pool's floored liquidity can move the recomputed price back by a rounding step, which
//! `PRICE_MARGIN` (1e-9, relative) covers. That margin is checked, not proven: `maverick_tests.rs`
//! runs up to 8 swaps on random pools against the bound (138,618 runs at `CROSSCHECK_CASES=6000`,
//! none above it, 89 % within 1 %). Bounded at the far edge, as before, the two directions' first rates multiplied to
//! (1 − fee_A)(1 − fee_B)·(upper/lower)², above one where the fees are below the tick's width,
//! and the convex relaxation took the round trip for a gain (bounds up to 1,000× the plan); now
//! they multiply to (1 − fee_A)(1 − fee_B)(1 + PRICE_MARGIN)², below one for any fee above a
//! billionth.

use super::tick_math::ONE;
use super::MaverickPool;
use crate::pools::two_token_direction;

/// Relative margin on rates and reserves for the floating-point evaluation.
const MARGIN: f64 = 1e-12;
/// Relative margin on the first tick's rate at its current price: the floating-point evaluation
/// plus the drift of the price the pool recomputes from the tick's reserves after each swap
/// (its liquidity floored), which may start a later swap of the run a hair below where the first
/// one started.
const PRICE_MARGIN: f64 = 1e-9;

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
                let (edge, margin) = match self.quote_of(t, token_a_in) {
                    Ok(quote) if Some(t.index) == first => (quote.price, PRICE_MARGIN),
                    _ => (near, MARGIN),
                };
                let rate = self.edge_rate(token_a_in, f64::from(edge)) * (1.0 + margin);
                let cap = f64::from(t.reserves[out_side]) / scale_out * (1.0 + MARGIN);
                (cap / rate, rate)
            })
            .filter(|(width, rate)| *rate > 0.0 && width.is_finite())
            .collect()
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
