//! A pooled venue held by two budgets at once beside its first (a Curve meta pool and its base
//! pool: `pools/stableswap/meta_bound.rs`): every state a plan reaches satisfies
//!
//! B_j(z, D) = Σ_t [m_jt·(z_t − x_t) + n_jt·ln(z_t/x_t)] + level_j(D) ≥ −s_j, j = 0, 1,
//!
//! (z in the first budget's units; the meta pool's budget, j = 0, holds the meta coin, the base
//! pool's, j = 1, the base coins, and both hold the base pool's invariant D through [`Level`],
//! `pooled_meta.rs`). The term is the sup of the coins' values over that set, which by weak
//! duality (no convexity needed) is at most
//!
//! min over λ₀, λ₁ ≥ 0 of λ₀·s₀ + λ₁·s₁ + Σ_t h_t(λ) + sup_D G(D; λ)
//!
//! and each coin's response keeps the one-budget closed form, since the budgets' coefficients
//! add: A_t = λ₀·m_0t + λ₁·m_1t per unit moved, K_t = λ₀·n_0t + λ₁·n_1t on ln(z_t/x_t), so a
//! deposit goes to z = K/(p − A) and a withdrawal to z = K/(q − A) (all of x when K = 0). Any λ
//! gives an upper bound, so the term takes the least of the pairs' values at the λ their searches
//! reach (a pair with [`Second::or`] the greater of its own and its other piece's, one of which
//! every reachable state satisfies), and never leans on the search having converged; the first budget's own term is one more
//! candidate only where no pair holds it ([`Budget::joint_two`]). The search is nested: λ₁ by a safeguarded Newton on ∂Φ/∂λ₁ at the
//! best λ₀ (the envelope theorem; Φ's minimum over λ₀ is convex in λ₁), and λ₀ for each λ₁ by a
//! safeguarded Newton on ∂Φ/∂λ₀.

use super::meta::schur::{schur2, Active2};
use super::meta::{withdrawal_for, Level, LevelMove};
use super::{receive, tender, Budget, CoinPrices, Joint, Response};

/// Two budgets over a pooled venue's coins, in the first budget's units per coin (module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Second {
    /// Per coin, its (m, n) in each budget: `coefficients[t][j]`, m ≥ 0, n ≥ 0.
    pub coefficients: Vec<[[f64; 2]; 2]>,
    /// What each budget may fall by, ≥ 0.
    pub slack: [f64; 2],
    /// The base pool's invariant as a variable of both budgets (None: the budgets hold the coins
    /// alone, budget 0 the venue's first: the pair with D eliminated).
    pub level: Option<Level>,
    /// Another pair of budgets the same states satisfy: the term is the least over all.
    pub also: Option<Box<Second>>,
    /// A pair of budgets that holds every reachable state this pair does not (a disjunction):
    /// this pair's value is the greater of the two (its own `also` is not read).
    pub or: Option<Box<Second>>,
}

impl Second {
    /// The budget a coin belongs to (the one whose coefficients it has).
    fn budget_of(&self, t: usize) -> usize {
        usize::from(self.coefficients[t][0] == [0.0, 0.0])
    }

    /// The pair (t → u) alone: an upper end on the withdrawal of u (first-budget units) that a
    /// deposit `delta` of t funds over both budgets and D (`Level::pair_room`).
    pub(super) fn pair_withdrawal(&self, t: usize, u: usize, delta: f64, xt: f64, xu: f64) -> f64 {
        let mut w = self.own_withdrawal(t, u, delta, xt, xu);
        if let Some(or) = &self.or {
            w = w.max(or.own_withdrawal(t, u, delta, xt, xu));
        }
        match &self.also {
            Some(also) => w.min(also.pair_withdrawal(t, u, delta, xt, xu)),
            None => w,
        }
    }

    /// [`Self::pair_withdrawal`] by this pair's two budgets alone.
    fn own_withdrawal(&self, t: usize, u: usize, delta: f64, xt: f64, xu: f64) -> f64 {
        match &self.level {
            Some(level) => {
                let (from, to) = (self.budget_of(t), self.budget_of(u));
                let gain = Budget::phi(self.coefficients[t][from], xt + delta, xt);
                let room = level.pair_room(from, to, gain, self.slack);
                withdrawal_for(self.coefficients[u][to], room, xu)
            }
            // Each budget alone bounds the withdrawal.
            None => (0..2)
                .filter(|&j| self.coefficients[u][j] != [0.0, 0.0])
                .map(|j| {
                    let gain = Budget::phi(self.coefficients[t][j], xt + delta, xt);
                    withdrawal_for(self.coefficients[u][j], self.slack[j] + gain, xu)
                })
                .fold(xu, f64::min),
        }
    }
}

/// Iterations of each 1-D search at most (safeguarded Newton converges in a handful).
const ROUNDS: usize = 100;

/// Φ's gradient and Hessian in (λ₀, λ₁) at one point (None: outside Φ's domain).
#[derive(Clone, Copy, Default)]
struct Derivatives {
    first: [f64; 2],
    second: [[f64; 2]; 2],
}

/// One coin's optimum at the multipliers: its final amount z, whether it is a deposit, and K.
struct Move {
    z: f64,
    deposit: bool,
    k: f64,
}

impl Budget {
    /// Coin t's best move against the multipliers `l` (None: it stays at x; z infinite: a
    /// deposit paying without end, outside Φ's domain).
    fn move_of(mn: [[f64; 2]; 2], r: &Response, x: f64, l: [f64; 2]) -> Option<Move> {
        let a = l[0] * mn[0][0] + l[1] * mn[1][0];
        let k = l[0] * mn[0][1] + l[1] * mn[1][1];
        let marginal = a + k / x;
        if let Some(p) = r.deposit {
            if marginal > p {
                let z = if p > a { k / (p - a) } else { f64::INFINITY };
                return Some(Move { z, deposit: true, k });
            }
        }
        let q = r.withdraw?;
        (q > marginal).then(|| Move {
            z: if k > 0.0 { k / (q - a) } else { 0.0 },
            deposit: false,
            k,
        })
    }

    /// φ(z) = m·(z − x) + n·ln(z/x) for a coin of coefficients `mn`.
    pub(super) fn phi(mn: [f64; 2], z: f64, x: f64) -> f64 {
        let log = if mn[1] > 0.0 { mn[1] * super::ln_ratio(z, x) } else { 0.0 };
        mn[0] * (z - x) + log
    }

    /// [`Self::phi`] in both budgets at once, ln(z/x) taken once for both (the same bits as two
    /// calls: the same function of the same inputs).
    fn phi_both(mn: [[f64; 2]; 2], z: f64, x: f64) -> [f64; 2] {
        let log = match mn[0][1] > 0.0 || mn[1][1] > 0.0 {
            true => super::ln_ratio(z, x),
            false => 0.0,
        };
        mn.map(|c| c[0] * (z - x) + if c[1] > 0.0 { c[1] * log } else { 0.0 })
    }

    /// Φ's derivatives at `l`; None outside its domain (a deposit or D paying without end).
    fn derivatives2(&self, second: &Second, rs: &[Response], l: [f64; 2]) -> Option<Derivatives> {
        let mut d = Derivatives { first: second.slack, ..Derivatives::default() };
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = second.coefficients[t];
            let Some(m) = Self::move_of(mn, r, c.x, l) else { continue };
            if !m.z.is_finite() {
                return None;
            }
            for (first, phi) in d.first.iter_mut().zip(Self::phi_both(mn, m.z, c.x)) {
                *first += phi;
            }
            if m.k > 0.0 && m.z > 0.0 {
                let slope = [mn[0][0] + mn[0][1] / m.z, mn[1][0] + mn[1][1] / m.z];
                add_outer(&mut d.second, slope, m.z * m.z / m.k);
            }
        }
        if let Some(level) = &second.level {
            add_level(&mut d, &level.respond(l)?);
        }
        Some(d)
    }

    /// λ₀ minimising Φ at λ₁, and whether it is pinned at D's edge λ₀ = λ₁·a/per_d (where Φ may
    /// stay finite: D's sup is bounded there when a·κ_m/per_d < K, and Φ may still fall up to it)
    /// (None: λ₁ is past the domain, a deposit paying without end).
    fn inner(&self, second: &Second, rs: &[Response], l1: f64) -> Option<(f64, bool)> {
        let edge = second.level.map_or(f64::INFINITY, |v| l1 * v.a / v.per_d * (1.0 - 1e-12));
        let mut ceiling = edge;
        for (t, r) in rs.iter().enumerate() {
            let mn = second.coefficients[t];
            if let Some(p) = r.deposit {
                let left = p - l1 * mn[1][0];
                if mn[0][0] > 0.0 {
                    ceiling = ceiling.min(left / mn[0][0]);
                } else if left <= 0.0 {
                    return None;
                }
            }
        }
        if !ceiling.is_finite() {
            // Past every withdrawal's activation nothing is withdrawn and ∂Φ/∂λ₀ ≥ s₀ ≥ 0.
            ceiling = 0.0;
            for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
                let mn = second.coefficients[t];
                let unit = mn[0][0] + mn[0][1] / c.x;
                if let (Some(q), true) = (r.withdraw, unit > 0.0) {
                    ceiling = ceiling.max((q - l1 * (mn[1][0] + mn[1][1] / c.x)) / unit);
                }
            }
        }
        let d0 = self.derivatives2(second, rs, [0.0, l1])?;
        if ceiling.is_nan() || ceiling <= 0.0 || d0.first[0] >= 0.0 {
            return Some((0.0, false));
        }
        // The bracket's top, where Φ may be finite (D's edge): Φ still falling there is its least.
        if let Some(d) = self.derivatives2(second, rs, [ceiling, l1]) {
            if d.first[0] <= 0.0 {
                return Some((ceiling, ceiling == edge && second.level.is_some()));
            }
        }
        let (mut lo, mut hi) = (0.0, ceiling);
        let mut l0 = 0.5 * hi;
        for _ in 0..ROUNDS {
            let Some(d) = self.derivatives2(second, rs, [l0, l1]) else {
                hi = l0;
                l0 = 0.5 * (lo + hi);
                continue;
            };
            if d.first[0] > 0.0 {
                hi = l0;
            } else {
                lo = l0;
            }
            let newton = l0 - d.first[0] / d.second[0][0];
            let next = if d.second[0][0] > 0.0 && newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if (next - l0).abs() <= 1e-14 * l0 || hi - lo <= 1e-14 * hi {
                l0 = next;
                break;
            }
            l0 = next;
        }
        // The feasible end of the bracket: Φ is finite there.
        let feasible = self.derivatives2(second, rs, [l0, l1]).is_some();
        Some((if feasible { l0 } else { lo }, false))
    }

    /// Φ's slope and curvature along λ₁ with the best λ₀ (pinned at D's edge: along the edge's
    /// ray), at λ₁ (None: outside the domain).
    fn outer_slope(
        &self,
        second: &Second,
        rs: &[Response],
        l1: f64,
    ) -> Option<([f64; 2], f64, f64)> {
        let (l0, pinned) = self.inner(second, rs, l1)?;
        let d = self.derivatives2(second, rs, [l0, l1])?;
        let h = d.second;
        if let (true, Some(level)) = (pinned, &second.level) {
            let r = level.a / level.per_d * (1.0 - 1e-12);
            let g = d.first[1] + r * d.first[0];
            return Some(([l0, l1], g, h[1][1] + 2.0 * r * h[0][1] + r * r * h[0][0]));
        }
        let curvature =
            if l0 > 0.0 && h[0][0] > 0.0 { h[1][1] - h[0][1] * h[0][1] / h[0][0] } else { h[1][1] };
        Some(([l0, l1], d.first[1], curvature))
    }

    /// The multipliers the nested search reaches (None: no point of Φ's domain was found).
    fn multipliers(&self, second: &Second, rs: &[Response]) -> Option<[f64; 2]> {
        // Past the cheapest deposit's price per unit of the base budget (a coin of it alone) Φ is
        // infinite; with none, the bracket's top is doubled until ∂Φ/∂λ₁ > 0.
        let mut ceiling = f64::INFINITY;
        let mut scale = 0.0f64;
        let edge = second.level.map_or(1.0, |v| v.per_d / v.a);
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = second.coefficients[t];
            let unit = mn[1][0] + mn[1][1] / c.x;
            let other = mn[0][0] + mn[0][1] / c.x;
            if let Some(p) = r.deposit {
                if mn[0][0] == 0.0 && mn[1][0] > 0.0 {
                    ceiling = ceiling.min(p / mn[1][0]);
                }
                if unit > 0.0 {
                    scale = scale.max(p / unit);
                }
                if other > 0.0 {
                    scale = scale.max(p / other * edge);
                }
            }
            if let Some(q) = r.withdraw {
                if unit > 0.0 {
                    scale = scale.max(q / unit);
                }
                if other > 0.0 {
                    scale = scale.max(q / other * edge);
                }
            }
        }
        let mut hi = if ceiling.is_finite() { ceiling } else { 2.0 * scale };
        if !(hi > 0.0 && hi.is_finite()) {
            return None;
        }
        if !ceiling.is_finite() {
            // Doubled until Φ rises in λ₁ there.
            for _ in 0..64 {
                match self.outer_slope(second, rs, hi) {
                    Some((_, g, _)) if g <= 0.0 => hi *= 2.0,
                    _ => break,
                }
            }
        }
        let mut lo = 0.0;
        let mut l1 = 0.5 * hi;
        let mut best = None;
        for _ in 0..ROUNDS {
            let Some((l, g, curvature)) = self.outer_slope(second, rs, l1) else {
                hi = l1;
                l1 = 0.5 * (lo + hi);
                continue;
            };
            best = Some(l);
            if g > 0.0 {
                hi = l1;
            } else {
                lo = l1;
            }
            let newton = l1 - g / curvature;
            let next = if curvature > 0.0 && newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if (next - l1).abs() <= 1e-12 * l1 || hi - lo <= 1e-12 * hi {
                break;
            }
            l1 = next;
        }
        best
    }

    /// The term over the pairs of budgets: the least of each pair's value at the multipliers its
    /// search reaches, and of the first budget's own term only where no pair holds it (module
    /// docs). A pair without a level (D eliminated) holds the first budget as its budget 0, so its
    /// value is at most the first's (λ₁ = 0 is the first's own dual); the first's own term beside
    /// it only wins where the pair's search stops off its least, and there its base coins, linear,
    /// withdraw all or nothing: the least of the two switched between them from one price to the
    /// next, and on the embedded market's 3-hop graphs Newton stopped unconverged far above the
    /// plan (`pooled_meta_solve_tests.rs`).
    pub(super) fn joint_two(&self, second: &Second, prices: &[CoinPrices]) -> Joint {
        let rs = self.responses(prices);
        let mut best: Option<Joint> = None;
        let mut holds_first = false;
        let mut system = Some(second);
        while let Some(two) = system {
            let joint = self.pair_term(two, prices, &rs).and_then(|joint| match &two.or {
                // Either pair may hold a state: the greater value bounds both.
                Some(or) => {
                    let other = self.pair_term(or, prices, &rs)?;
                    Some(if other.value > joint.value { other } else { joint })
                }
                None => Some(joint),
            });
            if let Some(joint) = joint {
                holds_first |= two.level.is_none();
                if best.as_ref().is_none_or(|b| joint.value < b.value) {
                    best = Some(joint);
                }
            }
            system = two.also.as_deref();
        }
        match best {
            Some(best) if holds_first => best,
            best => {
                let first = self.joint_at(self.tangent(1.0, 0.0), prices, &rs);
                best.filter(|b| b.value < first.value).unwrap_or(first)
            }
        }
    }

    /// One pair's value at the multipliers its search reaches (None: no point of Φ's domain).
    fn pair_term(&self, two: &Second, prices: &[CoinPrices], rs: &[Response]) -> Option<Joint> {
        self.multipliers(two, rs).and_then(|l| self.joint_at_two(two, prices, rs, l))
    }

    /// Φ at the multipliers `l`, with the trade it prices and its Hessian in the prices (None:
    /// outside Φ's domain).
    fn joint_at_two(
        &self,
        second: &Second,
        prices: &[CoinPrices],
        rs: &[Response],
        l: [f64; 2],
    ) -> Option<Joint> {
        crate::route::clock::count_work();
        let n = self.coins.len();
        let size = n.saturating_mul(2);
        let mut joint = self.allowances(prices);
        let slack = l[0] * second.slack[0] + l[1] * second.slack[1];
        joint.value += slack;
        joint.magnitude += slack;
        let mut active = Vec::with_capacity(n);
        let mut lagrange = Derivatives::default();
        let mut level_row = None;
        if let Some(level) = &second.level {
            let at = level.respond(l)?;
            let g = level.value(&at, l);
            joint.value += g;
            joint.magnitude += g.abs() + l[1] * at.terms[1].abs();
            add_level(&mut lagrange, &at);
            level_row = level_share(&at);
        }
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = second.coefficients[t];
            let Some(m) = Self::move_of(mn, r, c.x, l) else { continue };
            if !m.z.is_finite() {
                return None;
            }
            let phi = Self::phi_both(mn, m.z, c.x);
            let gain = l[0] * phi[0] + l[1] * phi[1];
            let (price, conversion) = if m.deposit {
                let p = r.deposit.unwrap_or(0.0);
                joint.inputs[t] = (m.z - c.x) / c.scale;
                (-p * (m.z - c.x), 1.0 / c.scale)
            } else {
                let q = r.withdraw.unwrap_or(0.0);
                joint.outputs[t] += (c.x - m.z) * c.keep / c.scale;
                (q * (c.x - m.z), c.keep / c.scale)
            };
            joint.value += price + gain;
            joint.magnitude += price.abs() + l[0] * phi[0].abs() + l[1] * phi[1].abs();
            // In the Lagrangian's units, so deposits and withdrawals of different budgets compare
            // (`decompose` splits by them).
            joint.budget[t] = gain;
            if m.k > 0.0 && m.z > 0.0 {
                let slope = [mn[0][0] + mn[0][1] / m.z, mn[1][0] + mn[1][1] / m.z];
                let per = m.z * m.z / m.k;
                add_outer(&mut lagrange.second, slope, per);
                active.push(Active2 {
                    variable: if m.deposit { tender(t) } else { receive(t) },
                    own: per * conversion * conversion,
                    cross: [-slope[0] * per * conversion, -slope[1] * per * conversion],
                });
            }
        }
        schur2(&active, &lagrange.second, level_row, l, &mut joint.hessian, size);
        Some(joint)
    }
}

/// m += s·sᵀ·per.
fn add_outer(m: &mut [[f64; 2]; 2], s: [f64; 2], per: f64) {
    for i in 0..2 {
        for j in 0..2 {
            m[i][j] += s[i] * s[j] * per;
        }
    }
}

/// The D term's share of Φ's derivatives: its terms, and where D moves with λ (an interior
/// maximum), slope·slopeᵀ/(−G″).
fn add_level(d: &mut Derivatives, level: &LevelMove) {
    d.first[0] += level.terms[0];
    d.first[1] += level.terms[1];
    if level.bend > 0.0 && level.bend.is_finite() {
        add_outer(&mut d.second, level.slopes, 1.0 / level.bend);
    }
}

/// The D term's row in Φ's Hessian factor, slopes/√bend, where [`add_level`] adds its outer
/// product (`meta::schur`).
fn level_share(level: &LevelMove) -> Option<[f64; 2]> {
    (level.bend > 0.0 && level.bend.is_finite()).then(|| {
        let root = level.bend.sqrt();
        [level.slopes[0] / root, level.slopes[1] / root]
    })
}

#[cfg(test)]
#[path = "pooled_meta_diagnosis.rs"]
pub(crate) mod diagnosis;

#[cfg(test)]
#[path = "pooled_meta_solve_tests.rs"]
mod solve_tests;

#[cfg(test)]
#[path = "pooled_second_tests.rs"]
mod tests;
