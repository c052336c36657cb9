//! The vault as one constraint over all its pairs, for the convex bound: every coin valued at the
//! oracle's price now, each withdrawal charged its keep (the spread and the fee the vault keeps).
//!
//! With P the oracle's prices when the plan starts (P_0 = 1 for the quote token), V_P the vault's
//! holdings valued at P and, per base b whose price moves, G_b(u) = (u + e^(−u) − 1)/c_b with
//! u = ln(p_b/P_b) (p_b the price the oracle then holds, c_b the coefficient per raw quote unit:
//! a swap's γ is c_b times its quote notional), every swap in any pair and order raises
//! V_P − Σ_b G_b. A sale of base at price p = P/r with γ = c·q moves u by ln(1 − γ) and pays
//! q·(1 − γ − s)·(1 − f): V_P rises by at least q·(r − 1 + γ), G_b by
//! q·(ln(1 − γ)/γ + r/(1 − γ)), which leaves at least q·γ·(3/2 − r/(1 − γ)) ≥ 0. A purchase with q
//! quote (the fee off) moves u by −ln(1 − γ) and pays q·(1 − γ − s)/p base: the leftover is at least
//! q·γ·(r − 1/2 − γ/(3(1 − γ))) ≥ 0. Base to base is the two halves. Both hold while
//! r = P/p stays in [1/2 + γ/(3(1 − γ)), 3/2·(1 − γ)] for γ up to the guards' most: p stays inside
//! the interval the oracle can reach in the block (`bound.rs`), so [`joint_budget`] checks that
//! interval against the guards and builds nothing when it fails.
//!
//! G ≥ 0 and G = 0 when the plan starts (p = P), so over the whole plan the trader's flows obey
//! Σ_t P_t·in_t − Σ_t P_t·out_t/k_t ≥ −slack: a linear budget. The keeps k_t are what the spread
//! and the fee leave of a withdrawal of t through any pair: selling base b for quote keeps
//! (1 − s_b)(1 − f_b) exactly (the fee comes off the output); buying a base takes the fee off the
//! input, valued at p rather than P, so the keep is K'·R/(1 + K'·(R − 1)) times the purchase's
//! spread factor, with K' what precedes the purchase ((1 − f), or base to base (1 − h)(1 − f),
//! h = max(s₁, s₂)/2) and R the largest P/p the base reaches (the first-order condition; the γ terms
//! above only add). A coin's keep is the least of its pairs' (the largest k). Spreads only widen
//! within a block, so the spreads now are the least a plan meets. The slack is the roundings of up
//! to `swaps` swaps: the fee's floor (a raw quote unit), and the floors of γ and of the price the
//! swap posts, each moving G by at most |1 − r|/c_b times a unit of γ or of the price.
//! `joint_tests.rs` runs random vaults and random runs of swaps over every pair with the exact
//! integer swap and checks both inequalities.

use super::{WoofiPool, E18, PRICE_DEC};
use crate::math::U256;
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::convex::pooled::{Budget, Coin};

fn real(x: U256) -> f64 {
    f64::from(x)
}

/// One token of the vault in the joint budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointCoin {
    /// P_t: raw quote per raw unit of the token at the oracle's price now (1 for the quote token).
    pub price: f64,
    /// k_t ≤ 1: what a withdrawal of the token is worth to the budget, per unit of its value at
    /// P_t, after the spread and fee the vault keeps (module docs).
    pub keep: f64,
    /// The most raw units a plan can take out (the reserve the pool's `swap` pays from).
    pub reserve: f64,
    /// d_t: what a deposit of the token is worth to the budget, per unit of its value at P_t:
    /// the part of the spread and fee of the pairs that sell it that the keeps of what they buy
    /// leave (1 for the quote token; module docs).
    pub deposit: f64,
}

/// The vault's one constraint: Σ_t price_t·deposit_t·in_t − Σ_t price_t·out_t/keep_t ≥ −slack
/// over the trader's raw flows of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct JointBudget {
    pub coins: Vec<JointCoin>,
    /// Raw quote units: the roundings of the plan's swaps.
    pub slack: f64,
}

/// Per base, what the proof needs: the price now, whether it moves (fresh and a coefficient), the
/// ratio r = P/p at the interval's ends, and the raw quote per unit of γ (1/c).
#[derive(Clone, Copy, Debug)]
pub(super) struct BaseTerms {
    pub price_now: f64,
    pub moves: bool,
    pub r_min: f64,
    pub r_max: f64,
    pub per_gamma: f64,
    pub lowest: f64,
}

/// The base's terms, or None when the oracle refuses it now.
pub(super) fn base_terms(pool: &WoofiPool, base: usize) -> Option<BaseTerms> {
    let now = pool.price_state(base).ok()?;
    // A swap posts its price, and a posted price is what the oracle gives while the window is
    // open (a base at Chainlink's price now because none was posted moves too, from there).
    let moves = pool.window_open && !now.coeff.is_zero();
    let (lo, hi) = super::bound::price_interval(pool, base)?;
    let p = real(now.price);
    let (r_min, r_max) = if moves { (p / hi, p / lo) } else { (1.0, 1.0) };
    let per_gamma =
        if moves { real(pool.token(0).ok()?.unit) * real(E18) / real(now.coeff) } else { 0.0 };
    Some(BaseTerms { price_now: p, moves, r_min, r_max, per_gamma, lowest: lo })
}

/// γ's most in one swap of `base` (a fraction): the max gamma guard, or the max notional's γ.
pub(super) fn gamma_max(pool: &WoofiPool, base: usize, terms: &BaseTerms) -> Option<f64> {
    let limits = pool.token(base).ok()?;
    let by_guard = real(limits.max_gamma) / real(E18);
    let by_notional = if terms.per_gamma > 0.0 {
        (real(limits.max_notional) + 1.0) / terms.per_gamma
    } else {
        0.0
    };
    Some(by_guard.min(by_notional))
}

fn keep(spread: f64) -> f64 {
    (1.0 - spread).max(0.0)
}

/// The keep of a purchase of a base whose price reaches r = P/p up to `r_max`, after `before` (the
/// fee, and base to base the first half's spread) and with its own spread factor `own`.
fn purchase_keep(before: f64, own: f64, r_max: f64) -> f64 {
    let r = r_max.max(1.0);
    own * before * r / (1.0 + before * (r - 1.0))
}

/// The vault's joint budget for up to `swaps` swaps in one plan (module docs), or None when the
/// proof's conditions fail (a base the oracle refuses, prices that may leave the range where the
/// γ terms are ≥ 0, a paused vault).
pub fn joint_budget(pool: &WoofiPool, swaps: u32) -> Option<JointBudget> {
    let n = pool.token_count();
    if pool.paused || n < 2 {
        return None;
    }
    let spread = |b: usize| pool.oracle(b).ok().map(|o| real(o.spread) / real(E18));
    let fee = |t: usize| pool.token(t).ok().map(|t| real(t.fee_rate) / 1e5);
    let (qd, mut per_swap) = (real(pool.token(0).ok()?.unit), 0.0f64);
    let mut terms = Vec::with_capacity(n);
    for b in 1..n {
        let t = base_terms(pool, b)?;
        let g = gamma_max(pool, b, &t)?;
        if t.moves {
            let ok = g < 0.5
                && t.r_max <= 1.5 * (1.0 - g) - 1e-9
                && t.r_min >= 0.5 + g / (3.0 * (1.0 - g)) + 1e-9
                && t.r_max - t.r_min <= 0.5
                && t.lowest >= 2.0;
            if !ok {
                return None;
            }
            let rho = (1.0 - t.r_min).abs().max((t.r_max - 1.0).abs());
            // γ's floor (a unit of 1e18) and the posted price's (a unit of the lowest price).
            per_swap = per_swap.max(t.per_gamma * rho * (1.0 / real(E18) + 1.0 / t.lowest));
        }
        terms.push(t);
    }
    // The fee's floor (a raw quote unit, priced up to r/keep on a purchase) and the floors of
    // both halves' γ and price, with a unit to spare.
    let slack = f64::from(swaps) * (4.0 + 2.0 * per_swap);
    let mut coins = Vec::with_capacity(n);
    // Selling any base for quote: (1 − s_b)(1 − f_b).
    let quote_keep = (1..n)
        .map(|b| Some(keep(spread(b)?) * keep(fee(b)?)))
        .try_fold(0.0f64, |k, x| x.map(|x| k.max(x)))?;
    let quote = pool.token(0).ok()?;
    let quote_reserve = real(quote.reserve).min(real(pool.balance(0).ok()?));
    coins.push(JointCoin { price: 1.0, keep: quote_keep, reserve: quote_reserve, deposit: 1.0 });
    for b in 1..n {
        let t = &terms[b.saturating_sub(1)];
        let sb = spread(b)?;
        let mut k = purchase_keep(keep(fee(b)?), keep(sb), t.r_max);
        for b1 in (1..n).filter(|&b1| b1 != b) {
            let h = (sb.max(spread(b1)?) - 1.0 / real(E18)).max(0.0) / 2.0;
            let f = fee(b)?.max(fee(b1)?);
            k = k.max(purchase_keep(keep(h) * keep(f), keep(h), t.r_max));
        }
        let token = pool.token(b).ok()?;
        let price = t.price_now * qd / (real(PRICE_DEC) * real(token.unit));
        let reserve = real(token.reserve).min(real(token.balance));
        if !(price > 0.0 && price.is_finite() && k > 0.0) {
            return None;
        }
        coins.push(JointCoin { price, keep: k, reserve, deposit: 1.0 });
    }
    // Each base's deposit: the least the pairs that sell it allow, at their first order (the γ
    // terms only add), the keeps above fixed.
    for b in 1..n {
        let t = &terms[b.saturating_sub(1)];
        // 1 − r·δ ≥ x for r in [r_min, r_max]: δ ≤ (1 − x)/r at the worst end.
        let allowed = |room: f64| room / if room >= 0.0 { t.r_max } else { t.r_min };
        let mut delta = allowed(1.0 - keep(spread(b)?) * keep(fee(b)?) / quote_keep);
        for u in (1..n).filter(|&u| u != b) {
            let (h, f) = ((spread(b)?.max(spread(u)?)) / 2.0, fee(b)?.max(fee(u)?));
            let before = keep(h) * keep(f);
            // Linear in r₂: its worst at one end.
            let room = |r2: f64| 1.0 + before * (r2 - 1.0) - r2 * before * keep(h) / coins[u].keep;
            let ends = &terms[u.saturating_sub(1)];
            delta = delta.min(allowed(room(ends.r_min).min(room(ends.r_max))));
        }
        // Never worth more than a withdrawal of it pays back (no round trip gains).
        coins[b].deposit = (1.0 - delta).min(1.0 / coins[b].keep);
    }
    (quote_keep > 0.0 && slack.is_finite()).then_some(JointBudget { coins, slack })
}

/// Σ_b G_b(ln(p_b/P_b)) of `now` against `start` (raw quote units): how far the plan's swaps have
/// moved the moving bases' prices from where they started (module docs).
pub fn potential(start: &WoofiPool, now: &WoofiPool) -> Option<f64> {
    let mut total = 0.0;
    for b in 1..start.token_count() {
        let t = base_terms(start, b)?;
        if !t.moves {
            continue;
        }
        let posted = real(now.oracle(b).ok()?.price);
        let p = if posted > 0.0 { posted } else { t.price_now };
        // d = r − 1 = P/p − 1; G = (d − ln(1 + d))/c, by its series near 0 (no cancellation).
        let d = (t.price_now - p) / p;
        let g = if d.abs() < 1e-2 {
            let (mut sum, mut power) = (0.0, d * d);
            for k in 2..12 {
                let term = power / f64::from(k);
                sum += if k % 2 == 0 { term } else { -term };
                power *= d;
            }
            sum
        } else {
            d - d.ln_1p()
        };
        total += g * t.per_gamma;
    }
    Some(total)
}

/// The joint budget for a plan's swaps as the convex bound's pooled budget: linear in every coin
/// (κ = 0), in raw quote units: a coin's amount is its reserve's value at P over its keep, so its
/// whole withdrawal pays the reserve (`convex/pooled_linear.rs`). None where [`joint_budget`] is,
/// or a reserve is empty.
pub(super) fn pooled_budget(pool: &WoofiPool) -> Option<Budget> {
    let joint = joint_budget(pool, MAX_SWAPS_PER_POOL)?;
    let coins = joint
        .coins
        .iter()
        .map(|c| {
            let x = c.reserve * c.price / c.keep;
            // A deposit buys `deposit` budget units per unit of its value at P, a withdrawal
            // costs 1/keep of them: scale P·d, and keep k·d so that w·keep/scale = w·k/P.
            (x > 0.0 && x.is_finite()).then_some(Coin {
                x,
                scale: c.price * c.deposit,
                keep: c.keep * c.deposit,
                allowance: 0.0,
                linear: true,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Budget { coins, kappa: 0.0, slack: joint.slack, second: None })
}
