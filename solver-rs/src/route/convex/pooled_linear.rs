//! A pooled venue whose budget is linear in every coin (κ = 0, every coin `linear`): WOOFi's vault,
//! each coin at the oracle's price now with the spread and fee as its keep (`pools/woofi/joint.rs`).
//! Its term is a linear program in closed form: the slack funds the dearest withdrawals first,
//! and past it every budget unit is bought at the cheapest deposit's price λ, so each coin whose
//! withdrawal pays more than λ is withdrawn whole and the cheapest deposit funds it.
//!
//! The one-budget closed form (`pooled.rs`) finds the same value at λ just below the cheapest
//! deposit's price, where no deposit is made: its flows are not conserved (withdrawals funded by
//! nothing), so the dual could never say converged. Here the deposit is the flow that funds them.
//! The term is piecewise linear in the prices: where a withdrawal's price equals λ (its corner)
//! it may carry anything up to its coin's whole amount at the same value, and where another
//! coin's deposit is as cheap as the deposit's it may fund any part of it. The dual reads both
//! corners as it reads a linear piece's (`dual.rs`, [`LinearPair`]), whether or not the graph
//! has an arc between the two coins' copies.

use super::{Budget, CoinPrices, Joint};
use crate::route::convex::ties::NEAR;

/// One corner of a linear budget's term: a trade between two coins that the term may carry in any
/// amount from `before` to `whole` at the same value where the prices ratio `from`'s price to
/// `to`'s at `rate`. Two kinds: a withdrawal of `to` funded by the deposit of `from` (the cheapest
/// per budget unit), at the withdrawal's price equal to the budget's; and a tie of two deposits,
/// `from` priced as `to` (the cheapest) per budget unit, where `from` may take over any part of
/// `to`'s deposit: a trade from `from`'s copy to `to`'s copy, its output the deposit of `to` it
/// replaces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearPair {
    pub from: usize,
    pub to: usize,
    /// Whether `to` is a coin received (a withdrawal) rather than a deposit tied with `from`.
    pub withdrawal: bool,
    /// The ratio of `from`'s price per raw unit to `to`'s at the corner.
    pub rate: f64,
    /// As the term books it: raw units of `from` in, raw units of `to` out (a withdrawal's
    /// slack-funded part included).
    pub input: f64,
    pub output: f64,
    /// The piece untaken (prices a hair above the corner's rate) and taken whole (a hair below).
    pub before: (f64, f64),
    pub whole: (f64, f64),
}

impl Budget {
    /// Whether the term is the linear program's (module docs).
    pub fn is_linear(&self) -> bool {
        self.kappa == 0.0 && self.second.is_none() && self.coins.iter().all(|c| c.linear)
    }

    /// The linear term at `prices`, and per withdrawal the pair it forms with the deposit.
    pub fn joint_linear(&self, prices: &[CoinPrices]) -> (Joint, Vec<LinearPair>) {
        crate::route::clock::count_work();
        let mut joint = self.allowances(prices);
        let rs = self.responses(prices);
        let deposit = rs
            .iter()
            .enumerate()
            .filter_map(|(t, r)| r.deposit.filter(|p| *p >= 0.0).map(|p| (t, p)))
            .fold(None, |best: Option<(usize, f64)>, (t, p)| match best {
                Some((_, b)) if b <= p => best,
                _ => Some((t, p)),
            });
        let lambda = deposit.map_or(f64::INFINITY, |(_, p)| p);
        let mut order: Vec<(usize, f64)> = rs
            .iter()
            .enumerate()
            .filter_map(|(u, r)| r.withdraw.filter(|q| *q > 0.0).map(|q| (u, q)))
            .collect();
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut free = self.slack.max(0.0);
        let mut pairs = Vec::new();
        let mut funded = 0.0;
        // What the deposit funds with every withdrawal at its corner taken whole (a tie's width).
        let mut widest = 0.0;
        for (u, q) in order {
            let c = &self.coins[u];
            let w = if q > lambda { c.x } else { c.x.min(free) }.max(0.0);
            let from_slack = w.min(free);
            free -= from_slack;
            let bought = w - from_slack;
            let cost = if bought > 0.0 { lambda * bought } else { 0.0 };
            joint.value += q * w - cost;
            joint.magnitude += q * w + cost;
            let output = w * c.keep / c.scale;
            joint.outputs[u] += output;
            if w > 0.0 {
                joint.budget[u] = -w;
            }
            funded += bought;
            let whole = (c.x - from_slack).max(0.0);
            widest += if q >= lambda * (1.0 - NEAR) { whole } else { bought };
            // Every coin received is booked with the deposit, traded or not: at its corner
            // (q = λ) the dual reads what it may carry (`dual.rs`).
            if let Some((t, _)) = deposit.filter(|(t, _)| *t != u) {
                let s = self.coins[t].scale;
                pairs.push(LinearPair {
                    from: t,
                    to: u,
                    withdrawal: true,
                    rate: c.keep * s / c.scale,
                    input: bought / s,
                    output,
                    before: (0.0, from_slack * c.keep / c.scale),
                    whole: (whole / s, c.x.max(0.0) * c.keep / c.scale),
                });
            }
        }
        if let (Some((t, _)), true) = (deposit, funded > 0.0) {
            joint.inputs[t] = funded / self.coins[t].scale;
            joint.budget[t] = funded;
        }
        // Every other coin tendered, tied with the deposit where its price per budget unit is the
        // same: it may fund any part of the deposit (the dual reads the tie as a corner).
        if let Some((t, _)) = deposit.filter(|_| widest > 0.0) {
            let s = self.coins[t].scale;
            for (v, r) in rs.iter().enumerate() {
                if v == t || !r.deposit.is_some_and(|p| p >= 0.0) {
                    continue;
                }
                let sv = self.coins[v].scale;
                pairs.push(LinearPair {
                    from: v,
                    to: t,
                    withdrawal: false,
                    rate: sv / s,
                    input: 0.0,
                    output: 0.0,
                    before: (0.0, 0.0),
                    whole: (widest / sv, widest / s),
                });
            }
        }
        (joint, pairs)
    }
}
