//! A Curve meta pool and its base pool as one venue in the convex bound: one budget
//! (`route/convex/pooled.rs`) over the venue's coins (the meta pool's coin, then the base pool's),
//! which holds whatever run of swaps a plan makes through the venue (coin → base coin, base coin →
//! coin, base coin → base coin), since every one of them moves the same two pools.
//!
//! Why every state a plan can reach is in the budget, in 18-decimal units (xp = balance · rate /
//! 10¹⁸; c the meta pool's coin, L its base LP balance, S the base LP supply, b the base pool's
//! balances, vp = D_b(b)/S its virtual price; 0 marks the state now):
//! - **The meta pool.** Its own budget (`bound.rs`) over its coin and its LP balance rated at vp₀
//!   holds at the end: each meta swap keeps its D at the vp it read, vp never falls (below), and
//!   D grows with the LP balance's rate, so φ_c(c) + φ_ℓ(ℓ) ≥ −s_m with ℓ = L·vp at the last swap,
//!   φ(z) = (z − x₀) + κ·ln(z/x₀).
//! - **vp never falls.** An `exchange` keeps D at a fixed supply; a one-coin deposit mints
//!   S·(D₂ − D₀)/D₀ with D₂ the D after the fee, below the D the pool keeps; a one-coin withdrawal
//!   burns its share of D₀ and pays less than that share. Each loses at most a few units to its
//!   floors, allowed for in `VP_MARGIN`/`VP_UNITS`.
//! - **The LP's claim.** LP tokens move only between the meta pool and the base pool (minted into
//!   it or burnt out of it) and to the meta pool's admin, so the supply outside the meta pool is at
//!   least S₀ − L₀, and its claim at least (S₀ − L₀)·vp₀: ℓ ≤ D_b(b) − (S₀ − L₀)·vp₀ =
//!   ℓ₀ + (D_b(b) − D_b₀) + ε, ε = D_b₀ − S₀·vp₀ (vp₀'s floor, a few units).
//! - **Linear past the tangent.** φ_ℓ is concave, so φ_ℓ(ℓ) ≤ σ·(ℓ − ℓ₀) with σ = 1 + κ/ℓ₀. D_b
//!   is concave in b (homogeneous of degree 1, with convex upper level sets: StableSwap's
//!   D^(n+1)/Πx is jointly convex), so D_b(b) − D_b₀ ≤ Σ_k g_k·(b_k − b₀_k) with g = ∇D_b(b₀) =
//!   (Ann + P/x_k)/(Ann − 1 + (n + 1)·P/D), P = D^(n+1)/(nⁿ·Πx). Together:
//!   φ_c(c) + Σ_k σ·g_k·(b_k − b₀_k) ≥ −s_m − σ·ε: the meta coin keeps its curvature, the base
//!   coins are linear (`Coin::linear`) at their marginal value. A base coin's balance falls by at
//!   least what the trader receives (the admin's share leaves it too), so its `keep` is 1.
//!
//! **A cached price** (the pre-factory template, `meta.rs`'s `VpCache`): the pool rates its LP
//! token at r, the stored price while fresh, else vp₀, which the plan's first swap through the
//! venue stores; either way r is fixed for the plan (one block), so the meta budget is taken at
//! ℓ = L·r, ℓ₀ = L₀·r, and the claim step becomes r·(L − L₀) ≤ vp₀·(L − L₀) + (vp₀ − r)·L₀ when
//! r ≤ vp₀: ℓ − ℓ₀ ≤ (D_b(b) − D_b₀) + ε + L₀·(vp₀ − r), whose last term goes to the slack (LP tokens
//! rated below their claim are a gain a trader takes: coin in, LP out at r, withdrawn at vp₀).
//! When r > vp₀ (a base pool whose A ramps down) with m = r/vp₀: ℓ − ℓ₀ ≤ m·(D_b(b) − D_b₀ + ε) +
//! (m − 1)·D_b₀, so σ is taken times m and (m − 1)·D_b₀ goes to the slack.
//!
//! What it leaves out, so where it is loose: the base pool's own curvature and fees (a base coin
//! trade is priced at the base pool's marginal rate, less no fee, up to its whole balance), the
//! meta pool's curvature on its LP side, and the meta fee on coin → base coin trades (paid in LP
//! tokens, which the bound values at the base pool's marginal rate). The meta coin's curvature and
//! its fee when it is received remain, so a trade whose size the meta pool limits is bounded
//! near what it pays; a base coin → base coin trade is bounded by the constant sum. The joint
//! term takes this budget at its first tangent only (`Budget::joint`).
//!
//! **Two budgets keep both pools' curvature** ([`Second`], held beside the first: the term is the
//! least of the two, `route/convex/pooled_second.rs`), with the base pool's D their shared
//! variable (`route/convex/pooled_meta.rs`). At the end of any run, D = D_b(b):
//! - the meta budget before φ_ℓ's tangent: φ_c(c) + φ_ℓ(z(D)) ≥ −s_m (φ_ℓ rising in ℓ), with
//!   z(D) = (r/vp₀)·D − r·(S₀ − L₀) ≥ ℓ = r·L (less the floors' margins): at the end
//!   L·V = D − (S − L)·V ≤ D − (S₀ − L₀)·V with V = D/S ≥ vp₀, so L ≤ D/vp₀ − (S₀ − L₀). The
//!   rate r the pool prices LP at only scales it: a cache above or below the claim needs no slack;
//! - the base pool's own budget (`bound.rs`) at level D: F(b, D) ≥ 0 with D^(n+1)/Πb above its
//!   tangent in (ln D, ln b) gives Σ_k β_k(b_k) ≥ a·(D − D₁) − s_b + κ_b·(n + 1)·ln(D/D₁) (β_k,
//!   κ_b, s_b, D₁ the base pool's budget, a = (Ann − 1)/Ann); no "D does not fall" is needed;
//! - D ≥ D_f = vp₀·(S₀ − L₀) (the LP outside the meta pool, at a virtual price that never falls).
//!
//! The meta coin is in the meta budget only, the base coins (curved, at κ_b) in the base budget
//! only; a base coin's `keep` stays 1.
//!
//! **D eliminated** (one more pair, `Second::also`: the term is the least over all). The first
//! budget gives σ·(D − D₀) ≥ −slack₁ − φ_c(c), so D − D₁ ≥ y(c) = −(slack₁ + φ_c(c))/σ (D₁ ≤ D₀),
//! and D ≥ D_f = vp₀·(S₀ − L₀). The base pool's budget at level D asks Σ_k β_k(b_k) ≥ need(D) − s_b,
//! need(D) = a·(D − D₁) + K·ln(D/D₁) (K = κ_b·(n + 1)), rising in D and concave.
//! - *The chord's two pieces.* On [D_f, D₁] need is at least its chord, s_c·(D − D₁) with
//!   s_c = a + K·ln(D₁/D_f)/(D₁ − D_f); above D₁ it is at least a·(D − D₁). So need(D) ≥
//!   min(s_c·y, a·y) at y = y(c) (the least rises in y), and every reachable state satisfies one of
//!   (s/σ)·φ_c(c) + Σ_k β_k(b_k) ≥ −(s/σ)·slack₁ − s_b, s = s_c or a, each beside the first budget
//!   (`Second::or`: the pair's value is the greater of the two). Neither carries a floor term.
//! - *The floor term.* K·ln(D/D₁) ≥ −K·ln(D₁/D_f) gives the one with s = a and K·ln(D₁/D_f) more
//!   slack (about 2.1·κ_b on the devnet's venue: at small sizes it funded a withdrawal of 10²³
//!   raw DAI against no deposit). Used only where the chord is not (D₁ ≤ D_f, or a piece not
//!   finite). Beside the pieces it is tighter only past a meta-coin deposit that takes y(c) below
//!   D_f − D₁, and there it was not kept: as a third pair its least switched with the pieces' from
//!   one price to the next, and the embedded market's 3-hop solves stopped up to 740 bps above the
//!   plan (0.7 without it; docs/solver-optimizer.md, *Not yet on the default market*).

use super::bound::{D_MARGIN, D_UNITS};
use super::math::{self, mul, PRECISION};
use super::{MetaBase, StableSwapPool, Template};
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::convex::pooled::{ln_ratio, Budget, Coin, Level, Second};

/// vp's relative loss to the floors of 2 × 64 base pool operations, far above it.
const VP_MARGIN: f64 = 1e-10;
/// vp's absolute loss, in xp units.
const VP_UNITS: f64 = 1e6;
/// f64's error in σ and the gradient (about 10⁻¹⁵), far above it.
const FLOAT_ROOM: f64 = 1e-12;

impl StableSwapPool {
    /// The budget of the meta pool and its base pool as one venue (module docs).
    pub(super) fn meta_budget(&self, base: &MetaBase) -> Option<Budget> {
        let vp = base.virtual_price().ok()?;
        // The price the pool rates its LP token at for the whole plan (a fresh cache's, or the
        // base pool's now, which the first swap stores): module docs, *A cached price*.
        let lp_rate = base.rate_virtual_price().ok()?;
        let own = StableSwapPool {
            rates: vec![*self.rates.first()?, lp_rate],
            base: None,
            template: Template::Legacy,
            ..self.clone()
        };
        let inner = own.budget()?;
        let (coin, lp) = (*inner.coins.first()?, *inner.coins.get(1)?);
        // m = max(1, lp_rate/vp₀): a price above the claim scales the LP's growth (module docs).
        let above = f64::from(lp_rate) / f64::from(vp);
        let m = above.max(1.0) * if lp_rate > vp { 1.0 + FLOAT_ROOM } else { 1.0 };
        let sigma = (1.0 + inner.kappa / lp.x) * m;
        let xp = base.pool.xp().ok()?;
        let amp = math::amp_at(&base.pool.ramp, base.pool.timestamp).ok()?;
        let inv = base.pool.template.invariant();
        let d_units = math::get_d(&xp, amp, inv).ok()?;
        let d = f64::from(d_units);
        let nf = f64::from(u8::try_from(xp.len()).ok()?);
        let ann = f64::from(amp) * nf / f64::from(inv.a_precision);
        let x: Vec<f64> = xp.iter().map(|&v| f64::from(v)).collect();
        if x.iter().any(|&v| v.is_nan() || v <= 0.0 || v.is_infinite()) || !(d > 0.0 && ann >= 1.0)
        {
            return None;
        }
        // P = D^(n+1)/(nⁿ·Πx), as D·Π(D/(n·x)) so nothing overflows.
        let p = x.iter().fold(d, |acc, &v| acc * (d / (nf * v)));
        let denominator = ann - 1.0 + (nf + 1.0) * p / d;
        // ε = D_b₀ − S₀·vp₀, and the units by which get_D's D and the real D may differ.
        let claimed = math::div(mul(base.supply, vp).ok()?, PRECISION).ok()?;
        let epsilon = f64::from(d_units.saturating_sub(claimed)) + 4.0;
        // L₀·(vp₀ − lp_rate): LP tokens the pool rates below their claim, a gain a trader can take.
        let held = *self.balances.get(1)?;
        let below = math::div(mul(held, vp.saturating_sub(lp_rate)).ok()?, PRECISION).ok()?;
        let below = f64::from(below) + f64::from(u8::from(lp_rate < vp));
        // (m − 1)·D_b₀: a price above the claim, where the LP balance falls (module docs).
        let above_room = (m - 1.0) * d;
        let sigma_1 = sigma / m;
        let slack = inner.slack
            + sigma * (epsilon + VP_MARGIN * d + VP_UNITS)
            + sigma_1 * (below + above_room);
        let swaps = f64::from(MAX_SWAPS_PER_POOL);
        let mut coins = vec![coin];
        for (&x, &rate) in x.iter().zip(&base.pool.rates) {
            let per_xp = sigma * (ann + p / x) / denominator * (1.0 + FLOAT_ROOM);
            let rate = f64::from(rate) / f64::from(PRECISION);
            coins.push(Coin {
                x: x * per_xp,
                scale: rate * per_xp,
                keep: 1.0 + 2.0 * FLOAT_ROOM,
                allowance: swaps * (1.5 / rate + 1.0),
                linear: true,
            });
        }
        let ok = sigma.is_finite() && slack.is_finite() && coins.iter().all(|c| c.scale > 0.0);
        // ℓ ≤ per_d·D + offset, from L·V ≤ D − (S₀ − L₀)·V at the end (V = D/S ≥ vp₀ less its
        // floors): ℓ = r·L ≤ (r/v_min)·(D + VP_UNITS) − r·(S₀ − L₀). No slack for a cache below
        // or above the claim: the rate r scales the LP's worth (module docs, *Two budgets*).
        let r = f64::from(lp_rate) / f64::from(PRECISION);
        let v_min = f64::from(vp) / f64::from(PRECISION) * (1.0 - VP_MARGIN);
        let outside = f64::from(base.supply) - f64::from(held);
        let per_d = r / v_min * (1.0 + FLOAT_ROOM);
        let offset = per_d * VP_UNITS - r * outside * (1.0 - FLOAT_ROOM);
        let meta = Meta { kappa: inner.kappa, slack: inner.slack, lp: lp.x, per_d, offset };
        let eliminated = self.eliminated(base, &coins, inner.kappa, sigma, slack, d, ann);
        let second = self.base_curvature(base, &coins, meta, d, ann).map(|mut second| {
            second.also = eliminated.map(Box::new);
            second
        });
        ok.then_some(Budget { coins, kappa: inner.kappa, slack, second })
    }

    /// The venue's two budgets that keep both pools' curvature, with the base pool's D as their
    /// shared variable (module docs), in the first budget's units per coin; None when the base
    /// pool has no budget.
    fn base_curvature(
        &self,
        base: &MetaBase,
        coins: &[Coin],
        meta: Meta,
        d0: f64,
        ann: f64,
    ) -> Option<Second> {
        let (of_base, d_floor, d1) = self.base_levels(base, d0)?;
        // D > 0 however low the floor.
        let floor = d_floor.max(f64::MIN_POSITIVE);
        let n = f64::from(u8::try_from(of_base.coins.len()).ok()?);
        let (c0, first) = coins.split_first()?;
        let mut coefficients = vec![[[1.0, meta.kappa], [0.0, 0.0]]];
        // A base coin's first-budget unit is per_xp xp units (x = xp·per_xp): m = 1/per_xp.
        for (c, b) in first.iter().zip(&of_base.coins) {
            coefficients.push([[0.0, 0.0], [b.x / c.x, of_base.kappa]]);
        }
        let room = FLOAT_ROOM * 100.0;
        let base_magnitude = of_base.coins.iter().map(|b| b.x).sum::<f64>() + d0;
        let slack = [
            meta.slack + room * (c0.x + meta.lp + meta.kappa),
            of_base.slack + room * (base_magnitude + of_base.kappa * (n + 1.0)),
        ];
        let level = Level {
            lp: meta.lp,
            lp_kappa: meta.kappa,
            per_d: meta.per_d,
            offset: meta.offset,
            floor,
            d1,
            a: (ann - 1.0) / ann,
            log: of_base.kappa * (n + 1.0),
        };
        let ok = slack.iter().all(|s| s.is_finite())
            && coefficients.iter().flatten().flatten().all(|v| v.is_finite() && *v >= 0.0)
            && level.offset.is_finite()
            && level.a > 0.0;
        ok.then_some(Second { coefficients, slack, level: Some(level), also: None, or: None })
    }

    /// The base pool's own budget, the least D any plan reaches (the LP outside the meta pool at
    /// vp₀, less the floors' margins) and the budget's tangent point D₁ (None: D₁ ≤ 0, or no
    /// budget).
    fn base_levels(&self, base: &MetaBase, d0: f64) -> Option<(Budget, f64, f64)> {
        let of_base = base.pool.budget()?;
        let vp = f64::from(base.virtual_price().ok()?) / f64::from(PRECISION);
        let outside = f64::from(base.supply) - f64::from(*self.balances.get(1)?);
        let d_floor = outside * vp * (1.0 - VP_MARGIN) - VP_UNITS;
        let d1 = d0 * (1.0 - D_MARGIN) - D_UNITS;
        (d1 > 0.0).then_some((of_base, d_floor, d1))
    }

    /// The pair with D eliminated (module docs, *D eliminated*), in the first budget's units per
    /// coin: the disjunction of the chord's two pieces (below and above D₁, `or`), or where no
    /// chord is the pair with the floor term; None when the meta pool holds the whole LP supply
    /// (no floor on D) or the base pool has no budget.
    #[allow(clippy::too_many_arguments)]
    fn eliminated(
        &self,
        base: &MetaBase,
        coins: &[Coin],
        kappa_m: f64,
        sigma: f64,
        slack_first: f64,
        d0: f64,
        ann: f64,
    ) -> Option<Second> {
        let (of_base, d_floor, d1) = self.base_levels(base, d0)?;
        if d_floor.is_nan() || d_floor <= 0.0 {
            return None;
        }
        let n = f64::from(u8::try_from(of_base.coins.len()).ok()?);
        let a = (ann - 1.0) / ann;
        let (c0, first) = coins.split_first()?;
        // The base budget over D's least, D − D₁ ≥ −(slack₁ + φ_c(c))/σ, at `slope` per unit of D
        // below D₁, with `floor` more slack.
        let pair = |slope: f64, floor: f64| {
            let weight = slope / sigma;
            let mut coefficients = vec![[[1.0, kappa_m], [weight, weight * kappa_m]]];
            // A base coin's first-budget unit is per_xp xp units (x = xp·per_xp): m = 1/per_xp.
            for (c, b) in first.iter().zip(&of_base.coins) {
                coefficients.push([[1.0, 0.0], [b.x / c.x, of_base.kappa]]);
            }
            let magnitude = weight * c0.x + of_base.coins.iter().map(|b| b.x).sum::<f64>();
            let slack =
                weight * slack_first + of_base.slack + floor + FLOAT_ROOM * 100.0 * magnitude;
            let ok = slack.is_finite()
                && coefficients.iter().flatten().flatten().all(|v| v.is_finite() && *v >= 0.0);
            let slack = [slack_first, slack];
            ok.then_some(Second { coefficients, slack, level: None, also: None, or: None })
        };
        if d1 <= d_floor {
            return pair(a, 0.0);
        }
        let log = of_base.kappa * (n + 1.0);
        // K·ln(D/D₁) ≥ −K·ln(D₁/D_f) for D ≥ D_f: the floor term, loose at small sizes, where no
        // chord is (module docs, *The floor term*).
        let with_floor = || pair(a, log * ln_ratio(d1, d_floor));
        // The need is at least the chord's below D₁ and a·(D − D₁) above it, so one of the two
        // pieces holds at D's least (module docs, *The chord's two pieces*).
        let Some(chord) = chord_slope(a, log, d1, d_floor) else { return with_floor() };
        let (Some(mut above), Some(below)) = (pair(a, 0.0), pair(chord, 0.0)) else {
            return with_floor();
        };
        above.or = Some(Box::new(below));
        Some(above)
    }
}

/// The slope of the chord of the base budget's need a·(D − D₁) + K·ln(D/D₁), concave in D, from
/// the floor D_f to D₁, rounded up (a steeper chord asks less below D₁); None when D₁ ≤ D_f.
fn chord_slope(a: f64, log: f64, d1: f64, d_floor: f64) -> Option<f64> {
    let slope = (a + log * ln_ratio(d1, d_floor) / (d1 - d_floor)) * (1.0 + FLOAT_ROOM);
    (d_floor > 0.0 && d1 > d_floor && slope.is_finite()).then_some(slope)
}

/// The meta pool's own budget as the venue's two budgets take it: κ_m, s_m, ℓ₀, and
/// ℓ ≤ per_d·D + offset.
#[derive(Clone, Copy)]
struct Meta {
    kappa: f64,
    slack: f64,
    lp: f64,
    per_d: f64,
    offset: f64,
}

#[cfg(test)]
#[path = "meta_bound_tests.rs"]
pub(super) mod tests;
