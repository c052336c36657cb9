//! A linear budget's term with the family's per-hop constraint beside it (WOOFi's vault:
//! `pools/woofi/hop.rs`): the venue's swaps at one hop of a plan pay out, in the budget's units,
//! at most what their inputs at that hop bring times the family's per-hop weights, plus a slack.
//! The joint budget alone (`pooled_linear.rs`) charges the plan's swaps as one: a withdrawal at the
//! first hop may be funded by a deposit at the third, as if the venue lent the first hop what the
//! third repays, which no sequence of swaps can (each swap pays at most its own input's worth).
//!
//! Each coin's flows are split by hop (a *slot*: the coin tendered from, or received at, the copy
//! of one layer), gross: a coin may be deposited at one hop and withdrawn at another. The term at
//! some prices is the linear program
//!
//! max Σ_j q_j·Y_j − Σ_i p_i·Z_i over Y, Z ≥ 0 (Y_j a withdrawal slot's budget units, Z_i a
//! deposit slot's), subject to
//! - the joint budget: Σ Y − Σ Z ≤ slack;
//! - per hop h: Σ_{j at h} Y_j − Σ_{i at h} ρ_t·Z_i ≤ the hop's slack (ρ_t the hop's weight of a
//!   unit of coin t's deposit over the joint budget's);
//! - per coin u: its net withdrawal at most its reserve, Σ_{j of u} Y_j − Σ_{i of u} Z_i/keep_u ≤ x_u
//!   (the vault never pays more of a coin than it holds);
//!
//! with q_j the head's price times what a budget unit of u pays (keep/scale) and p_i the copy's
//! price per budget unit of t (1/scale). Every plan's flows through the venue satisfy all three
//! (`pools/woofi/joint.rs`, `hop.rs`), at any prices, so its value bounds theirs: no monotone
//! prices are needed (the slots are gross). Solved by a small simplex (`simplex.rs`), the value
//! read from its multipliers made dual-feasible (weak duality: whatever the pivots' roundings, a
//! feasible dual point is an upper bound), so the term only certifies.
//!
//! Used where the bound is certified (`certificate.rs`): at the prices the dual's solve ends, the
//! venue's term is the least of the joint budget's and this one's. The solve itself still
//! minimises g with the joint budget's term (its corners are what the Newton steps read), so the
//! bound is tighter where this term is lower at those prices, not at its own minimiser.

use super::dual::{head_price, pooled_term};
use super::graph::{Arc, Copy, Graph, Head};
use super::pooled::Budget;
use super::simplex::maximise;

/// A family's per-hop constraint in its joint budget's units (raw units of the budget's value):
/// at each hop, Σ_t deposit_t·in_t − Σ_u out_u·scale_u/keep_u ≥ −slack over raw flows.
#[derive(Clone, Debug, PartialEq)]
pub struct HopTerm {
    /// Per coin: budget units a raw unit deposited at one hop brings that hop, at most.
    pub deposit: Vec<f64>,
    /// Budget units: the roundings of the hop's swaps.
    pub slack: f64,
    /// Per coin: the most raw units a plan can deposit in all (its swaps' input guards), which
    /// prices the roundings of the multipliers that certify the term.
    pub cap: Vec<f64>,
    /// How `deposit` narrows when the plan's swaps through the venue are small (`pools/woofi/hop.rs`).
    pub room: Option<HopRoom>,
}

/// What the per-hop weights are made of, to take them again for a plan whose swaps through the
/// venue move each coin's price less than the whole interval the oracle can reach in the block
/// (`pooled_vault_layers.rs`): w_t = max_u pays(t, u)·r_max(u)/r_min(t) (r = P/p, 1 for the quote
/// coin), each r within its interval and within e^(±room) of 1, where a coin's room is what swaps
/// of `notional` raw quote in all can move its price (in ln).
#[derive(Clone, Debug, PartialEq)]
pub struct HopRoom {
    /// Per coin t, per coin u: budget units per raw unit of t deposited, before the two r factors.
    pub pays: Vec<Vec<f64>>,
    /// Per coin: (r_min, r_max) over the interval the oracle can reach in the block.
    pub ends: Vec<(f64, f64)>,
    /// Per coin: raw quote of notional per unit of ln(p) moved (0: its price never moves).
    pub per_move: Vec<f64>,
    /// Per coin: the most ln(p) the posted prices' floors move it over a plan's swaps.
    pub drift: Vec<f64>,
    /// Per coin: raw quote of notional a raw unit of it brings a swap at most (its highest price).
    pub notional: Vec<f64>,
}

impl HopRoom {
    /// The per-hop weights (budget units per raw unit deposited, as [`HopTerm::deposit`]) for a
    /// plan whose swaps through the venue have at most `notional` raw quote of notional in all.
    /// Never above the whole interval's weights.
    pub fn deposit_within(&self, notional: f64) -> Option<Vec<f64>> {
        let n = self.ends.len();
        if self.pays.iter().any(|row| row.len() != n)
            || self.pays.len() != n
            || self.per_move.len() != n
            || self.drift.len() != n
        {
            return None;
        }
        // e^x ≤ 1 + x + x² for 0 ≤ x ≤ 1, e^(−x) ≥ 1 − x.
        let ends: Vec<(f64, f64)> = (0..n)
            .map(|c| {
                let (lo, hi) = self.ends[c];
                if self.per_move[c] <= 0.0 {
                    return (lo, hi);
                }
                let room = notional / self.per_move[c] + self.drift[c];
                if !(room.is_finite() && room <= 1.0) {
                    return (lo, hi);
                }
                (lo.max(1.0 - room), hi.min(1.0 + room + room * room))
            })
            .collect();
        let weight = |t: usize| {
            (0..n)
                .filter(|&u| u != t)
                .map(|u| self.pays[t][u] * ends[u].1 / ends[t].0)
                .fold(0.0f64, f64::max)
        };
        let weights: Vec<f64> = (0..n).map(weight).collect();
        weights.iter().all(|w| w.is_finite() && *w > 0.0).then_some(weights)
    }
}

/// A venue's per-hop term and its slots: per (coin, layer of the tendering copy), the copy, and
/// per (coin, layer it is received from), the head.
#[derive(Clone, Debug, PartialEq)]
pub struct PooledHops {
    pub term: HopTerm,
    /// (coin, hop, copy tendering it).
    pub tenders: Vec<(usize, usize, usize)>,
    /// (coin, hop, head receiving it).
    pub receives: Vec<(usize, usize, Head)>,
}

impl PooledHops {
    /// The slots of a venue's `arcs` (indices into `all`), a hop being the tendering copy's layer.
    pub fn of(term: HopTerm, arcs: &[usize], all: &[Arc], copies: &[Copy]) -> PooledHops {
        let (mut tenders, mut receives) = (Vec::new(), Vec::new());
        for &a in arcs {
            let arc = all[a];
            let (t, u) = (usize::from(arc.hop.token_in), usize::from(arc.hop.token_out));
            let hop = copies[arc.from].layer;
            if !tenders.contains(&(t, hop, arc.from)) {
                tenders.push((t, hop, arc.from));
            }
            if !receives.contains(&(u, hop, arc.to)) {
                receives.push((u, hop, arc.to));
            }
        }
        PooledHops { term, tenders, receives }
    }
}

/// The term's certified value at `prices` and the magnitude of what it adds (for the
/// certificate's float room); None where the program or its multipliers fail (the caller keeps
/// the joint budget's term).
pub fn hop_value(budget: &Budget, hops: &PooledHops, prices: &[f64]) -> Option<(f64, f64)> {
    hop_program(budget, hops, prices).map(|(value, magnitude, _)| (value, magnitude))
}

/// A slot's copy or head and its inflow − outflow, raw units.
pub type SlotFlow = (Head, f64);

/// [`hop_value`] with the program's primal flows: per slot, (copy or head, inflow − outflow in
/// raw units), the term's gradient in the prices.
pub fn hop_program(
    budget: &Budget,
    hops: &PooledHops,
    prices: &[f64],
) -> Option<(f64, f64, Vec<SlotFlow>)> {
    let coins = &budget.coins;
    if hops.term.deposit.len() != coins.len()
        || hops.term.cap.len() != coins.len()
        || budget.kappa != 0.0
        || budget.second.is_some()
    {
        return None;
    }
    // The variables: withdrawal slots paying something, then deposit slots.
    let ys: Vec<(usize, usize, f64)> = hops
        .receives
        .iter()
        .map(|&(u, h, head)| (u, h, head_price(prices, head) * coins[u].keep / coins[u].scale))
        .filter(|(_, _, q)| *q > 0.0)
        .collect();
    let zs: Vec<(usize, usize, f64)> =
        hops.tenders.iter().map(|&(t, h, c)| (t, h, prices[c] / coins[t].scale)).collect();
    if ys.is_empty() || ys.iter().chain(&zs).any(|v| !(v.2.is_finite() && v.2 >= 0.0)) {
        return None;
    }
    let rho = |t: usize| hops.term.deposit[t] / coins[t].scale;
    let mut hop_rows: Vec<usize> = ys.iter().map(|y| y.1).collect();
    hop_rows.sort_unstable();
    hop_rows.dedup();
    let mut coin_rows: Vec<usize> = ys.iter().map(|y| y.0).collect();
    coin_rows.sort_unstable();
    coin_rows.dedup();
    let (mut rows, mut b) = (Vec::new(), Vec::new());
    let row = |y: &dyn Fn(usize, usize) -> f64, z: &dyn Fn(usize, usize) -> f64| -> Vec<f64> {
        ys.iter().map(|v| y(v.0, v.1)).chain(zs.iter().map(|v| -z(v.0, v.1))).collect()
    };
    rows.push(row(&|_, _| 1.0, &|_, _| 1.0));
    b.push(budget.slack.max(0.0));
    for &h in &hop_rows {
        let on = |at: usize| if at == h { 1.0 } else { 0.0 };
        rows.push(row(&|_, at| on(at), &|t, at| on(at) * rho(t)));
        b.push(hops.term.slack.max(0.0));
    }
    for &u in &coin_rows {
        let of = |c: usize| if c == u { 1.0 } else { 0.0 };
        rows.push(row(&|c, _| of(c), &|c, _| of(c) / coins[u].keep));
        b.push(coins[u].x.max(0.0));
    }
    let c: Vec<f64> = ys.iter().map(|v| v.2).chain(zs.iter().map(|v| -v.2)).collect();
    let solved = maximise(&rows, &b, &c)?;
    // The multipliers: λ the joint budget's, μ per hop row, ν per coin row.
    let duals = solved.duals;
    // Row 0 the joint budget's, then the hop rows, then the coin rows.
    let (hop_duals, coin_duals) =
        duals.get(1..).unwrap_or(&[]).split_at(hop_rows.len().min(duals.len().saturating_sub(1)));
    let mu_of =
        |h: usize, _: &[f64]| hop_rows.iter().position(|&r| r == h).map_or(0.0, |k| hop_duals[k]);
    let lambda = duals[0];
    // Each coin's multiplier: the program's, raised to cover its withdrawal slots past roundings.
    let mut nu = vec![0.0f64; coins.len()];
    for (k, &u) in coin_rows.iter().enumerate() {
        nu[u] = coin_duals[k];
    }
    for &(u, h, q) in &ys {
        nu[u] = nu[u].max(q - lambda - mu_of(h, &duals));
    }
    // A deposit slot its price does not cover (the pivots' roundings, 10⁻¹⁶ of it): the
    // Lagrangian's bound charges the shortfall on the most a plan can deposit there.
    let mut shortfall = 0.0;
    for &(t, h, p) in &zs {
        let charged = lambda + rho(t) * mu_of(h, &duals) + nu[t] / coins[t].keep;
        if charged > p {
            shortfall += (charged - p) * hops.term.cap[t] * coins[t].scale;
        }
    }
    let mut parts = vec![lambda * b[0], shortfall];
    parts.extend(hop_duals.iter().map(|d| d * hops.term.slack.max(0.0)));
    parts.extend(coin_rows.iter().map(|&u| nu[u] * coins[u].x.max(0.0)));
    // Allowances: raw units past the keeps, received at the coin's dearest slot.
    for (u, c) in coins.iter().enumerate() {
        let dearest =
            ys.iter().filter(|y| y.0 == u).map(|y| y.2 * c.scale / c.keep).fold(0.0, f64::max);
        parts.push(dearest * c.allowance);
    }
    let value: f64 = parts.iter().sum();
    let magnitude: f64 = parts.iter().map(|p| p.abs()).sum();
    // The primal's flows: a withdrawal slot's budget units pay keep/scale raw each, a deposit
    // slot's take 1/scale.
    let heads = hops
        .receives
        .iter()
        .filter(|&&(u, _, head)| head_price(prices, head) * coins[u].keep / coins[u].scale > 0.0);
    let flows = heads
        .map(|&(u, _, head)| (u, head))
        .zip(&solved.x)
        .map(|((u, head), y)| (head, y * coins[u].keep / coins[u].scale))
        .chain(
            hops.tenders
                .iter()
                .zip(solved.x.get(ys.len()..).unwrap_or(&[]))
                .map(|(&(t, _, c), z)| (Head::Copy(c), -z / coins[t].scale)),
        )
        .collect();
    (value.is_finite() && magnitude.is_finite()).then_some((value, magnitude, flows))
}

/// What the per-hop terms take off g at `prices`, summed over the graph's pooled venues that have
/// one (each the joint term's value less the per-hop term's, where that is lower), and the
/// magnitude the per-hop terms add: `certificate.rs` certifies g less the first.
pub fn tightening(graph: &Graph, prices: &[f64]) -> (f64, f64) {
    let (mut less, mut magnitude) = (0.0, 0.0);
    for pooled in graph.venues.iter().filter_map(|v| v.pooled.as_ref()) {
        let Some(hops) = &pooled.hops else { continue };
        let Some((value, size)) = hop_value(&pooled.budget, hops, prices) else { continue };
        let joint = pooled_term(pooled, prices).joint.value;
        if value < joint {
            less += joint - value;
            magnitude += size;
        }
    }
    (less, magnitude)
}

#[cfg(test)]
#[path = "pooled_vault_hop_tests.rs"]
mod tests;
