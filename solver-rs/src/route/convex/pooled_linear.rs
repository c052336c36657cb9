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
//! it may carry anything up to its coin's whole amount at the same value. The dual reads those
//! corners as it reads a linear piece's (`dual.rs`, [`LinearPair`]).

use super::{Budget, CoinPrices, Joint};

/// One withdrawal of a linear budget's term and the deposit that funds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearPair {
    /// The deposit coin (the cheapest per budget unit) and the withdrawn coin.
    pub deposit: usize,
    pub withdrawal: usize,
    /// Raw units of the deposit coin this withdrawal's bought part takes, and the raw units of the
    /// withdrawn coin it pays (its slack-funded part included).
    pub input: f64,
    pub output: f64,
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
            // Every coin received is booked with the deposit, traded or not: at its corner
            // (q = λ) the dual reads what it may carry (`dual.rs`).
            if let Some((t, _)) = deposit.filter(|(t, _)| *t != u) {
                let input = bought / self.coins[t].scale;
                pairs.push(LinearPair { deposit: t, withdrawal: u, input, output });
            }
        }
        if let (Some((t, _)), true) = (deposit, funded > 0.0) {
            joint.inputs[t] = funded / self.coins[t].scale;
            joint.budget[t] = funded;
        }
        (joint, pairs)
    }
}
