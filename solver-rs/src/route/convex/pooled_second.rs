//! A pooled venue held by two budgets at once (a Curve meta pool and its base pool:
//! `pools/stableswap/meta_bound.rs`): every state a plan reaches satisfies both
//!
//! B₁(z) = Σ_t [(z_t − x_t) + κ₁_t·ln(z_t/x_t)] ≥ −s₁ and B₂(z) = Σ_t [m_t·(z_t − x_t) + n_t·ln(z_t/x_t)] ≥ −s₂
//!
//! (z in the first budget's units, κ₁_t = 0 for a linear coin). The term is the sup of the coins'
//! values over the intersection, which by Lagrange duality is
//!
//! min over λ₁, λ₂ ≥ 0 of λ₁·s₁ + λ₂·s₂ + Σ_t h_t(λ₁, λ₂)
//!
//! and each coin's response keeps the one-budget closed form, since the two budgets' coefficients
//! add: A_t = λ₁ + λ₂·m_t per unit moved, K_t = λ₁·κ₁_t + λ₂·n_t on ln(z_t/x_t), so a deposit goes to
//! z = K/(p − A) and a withdrawal to z = K/(q − A) (all of x when K = 0). Any λ ≥ 0 gives an upper
//! bound (weak duality), so the term takes the least of the first budget's own term (λ₂ = 0) and
//! the two-budget value at the λ its search reaches: never above the one-budget term, and it
//! never leans on the search having converged. The search is nested: λ₂ by a safeguarded Newton on
//! ∂Φ/∂λ₂ at the best λ₁ (the envelope theorem; Φ's minimum over λ₁ is convex in λ₂), and λ₁ for
//! each λ₂ by a safeguarded Newton on ∂Φ/∂λ₁.

use super::{receive, tender, Budget, CoinPrices, Joint, Response, Tangent};

/// A second budget over a pooled venue's coins, in the first budget's units per coin:
/// Σ_t [m_t·(z_t − x_t) + n_t·ln(z_t/x_t)] ≥ −slack.
#[derive(Clone, Debug, PartialEq)]
pub struct Second {
    /// m_t > 0: the budget's units per first-budget unit of coin t.
    pub linear: Vec<f64>,
    /// n_t ≥ 0: coin t's curvature in this budget.
    pub log: Vec<f64>,
    /// What the budget may fall by, ≥ 0.
    pub slack: f64,
}

impl Second {
    /// The pair (t → u) alone: an upper end on the withdrawal of u (first-budget units) that a
    /// deposit `delta` of t funds in this budget (bisection; the cost rises without bound as the
    /// withdrawal nears `xu`).
    pub(super) fn pair_withdrawal(&self, t: usize, u: usize, delta: f64, xt: f64, xu: f64) -> f64 {
        let log = |n: f64, a: f64, b: f64| if n > 0.0 { n * super::ln_ratio(a, b) } else { 0.0 };
        let gain = self.linear[t] * delta + log(self.log[t], xt + delta, xt) + self.slack;
        let cost = |w: f64| self.linear[u] * w + log(self.log[u], xu, xu - w);
        super::largest_withdrawal(cost, gain, xu)
    }
}

/// Iterations of each 1-D search at most (safeguarded Newton converges in a handful).
const ROUNDS: usize = 100;

/// Φ's gradient and Hessian in (λ₁, λ₂) at one point.
#[derive(Clone, Copy, Default)]
struct Derivatives {
    first: [f64; 2],
    second: [[f64; 2]; 2],
}

/// One trading coin's share of the term's second derivatives (as `Active`, per budget).
struct Active2 {
    variable: usize,
    own: f64,
    cross: [f64; 2],
}

/// One coin's optimum at the multipliers: its final amount z (None: it does not trade), whether it
/// is a deposit, and A, K.
struct Move {
    z: f64,
    deposit: bool,
    a: f64,
    k: f64,
}

impl Budget {
    /// Coin t's (m, n) in budget j: (1, κ₁_t) in the first, (m_t, n_t) in the second.
    fn coefficients(&self, second: &Second, at: Tangent, t: usize) -> [[f64; 2]; 2] {
        let c = &self.coins[t];
        [[1.0, Self::kappa_of(c, at.kappa)], [second.linear[t], second.log[t]]]
    }

    /// Coin t's best move against the multipliers `l` (None: it stays at x).
    fn move_of(&self, mn: [[f64; 2]; 2], r: &Response, x: f64, l: [f64; 2]) -> Option<Move> {
        let a = l[0] * mn[0][0] + l[1] * mn[1][0];
        let k = l[0] * mn[0][1] + l[1] * mn[1][1];
        let marginal = a + k / x;
        if let Some(p) = r.deposit {
            if marginal > p {
                return Some(Move { z: k / (p - a), deposit: true, a, k });
            }
        }
        let q = r.withdraw?;
        (q > marginal).then(|| Move {
            z: if k > 0.0 { k / (q - a) } else { 0.0 },
            deposit: false,
            a,
            k,
        })
    }

    /// φ_j(z) for coin of coefficients `mn`, at x.
    fn phi(mn: [f64; 2], z: f64, x: f64) -> f64 {
        let log = if mn[1] > 0.0 { mn[1] * super::ln_ratio(z, x) } else { 0.0 };
        mn[0] * (z - x) + log
    }

    /// Φ's derivatives at `l` (the domain's edge, where a deposit would pay without end, is left
    /// to the callers' brackets).
    fn derivatives2(
        &self,
        second: &Second,
        at: Tangent,
        rs: &[Response],
        l: [f64; 2],
    ) -> Derivatives {
        let mut d = Derivatives { first: [at.slack, second.slack], ..Derivatives::default() };
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = self.coefficients(second, at, t);
            let Some(m) = self.move_of(mn, r, c.x, l) else { continue };
            for (first, coefficients) in d.first.iter_mut().zip(mn) {
                *first += Self::phi(coefficients, m.z, c.x);
            }
            if m.k > 0.0 && m.z > 0.0 {
                let slope = [mn[0][0] + mn[0][1] / m.z, mn[1][0] + mn[1][1] / m.z];
                let per = m.z * m.z / m.k;
                for i in 0..2 {
                    for j in 0..2 {
                        d.second[i][j] += slope[i] * slope[j] * per;
                    }
                }
            }
        }
        d
    }

    /// λ₁ minimising Φ at λ₂ (None: λ₂ is past the domain, a deposit paying without end).
    fn inner(&self, second: &Second, at: Tangent, rs: &[Response], l2: f64) -> Option<f64> {
        let mut ceiling = f64::INFINITY;
        let mut top = 0.0f64;
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = self.coefficients(second, at, t);
            if let Some(p) = r.deposit {
                ceiling = ceiling.min(p - l2 * mn[1][0]);
            }
            if let Some(q) = r.withdraw {
                top = top.max((q - l2 * (mn[1][0] + mn[1][1] / c.x)) / (1.0 + mn[0][1] / c.x));
            }
        }
        if ceiling.is_nan() || ceiling <= 0.0 {
            return None;
        }
        let (mut lo, mut hi) = (0.0, top.min(ceiling));
        if hi.is_nan() || hi <= 0.0 || self.derivatives2(second, at, rs, [0.0, l2]).first[0] >= 0.0
        {
            return Some(0.0);
        }
        let mut l1 = 0.5 * hi;
        for _ in 0..ROUNDS {
            let d = self.derivatives2(second, at, rs, [l1, l2]);
            if d.first[0] > 0.0 {
                hi = l1;
            } else {
                lo = l1;
            }
            let newton = l1 - d.first[0] / d.second[0][0];
            let next = if d.second[0][0] > 0.0 && newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if (next - l1).abs() <= 1e-14 * l1 || hi - lo <= 1e-14 * hi {
                return Some(next);
            }
            l1 = next;
        }
        Some(l1)
    }

    /// The multipliers the nested search reaches (None: no λ₂ > 0 is worth trying).
    fn multipliers(&self, second: &Second, at: Tangent, rs: &[Response]) -> Option<[f64; 2]> {
        // Past the cheapest deposit's price per unit of the second budget Φ is infinite; past
        // every withdrawal's activation (λ₁ = 0) nothing is withdrawn and ∂Φ/∂λ₂ ≥ s₂ ≥ 0.
        let mut ceiling = f64::INFINITY;
        let mut top = 0.0f64;
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = self.coefficients(second, at, t)[1];
            if let Some(p) = r.deposit {
                ceiling = ceiling.min(p / mn[0]);
            }
            if let Some(q) = r.withdraw {
                top = top.max(q / (mn[0] + mn[1] / c.x));
            }
        }
        let (mut lo, mut hi) = (0.0, top.min(ceiling));
        if !(hi > 0.0 && hi.is_finite()) {
            return None;
        }
        let mut l2 = 0.5 * hi;
        let mut best = None;
        for _ in 0..ROUNDS {
            let Some(l1) = self.inner(second, at, rs, l2) else {
                hi = l2;
                l2 = 0.5 * (lo + hi);
                continue;
            };
            best = Some([l1, l2]);
            let d = self.derivatives2(second, at, rs, [l1, l2]);
            let g = d.first[1];
            // Φ's curvature in λ₂ along the best λ₁ (λ₁ eliminated where it is interior).
            let curvature = if l1 > 0.0 && d.second[0][0] > 0.0 {
                d.second[1][1] - d.second[0][1] * d.second[0][1] / d.second[0][0]
            } else {
                d.second[1][1]
            };
            if g > 0.0 {
                hi = l2;
            } else {
                lo = l2;
            }
            let newton = l2 - g / curvature;
            let next = if curvature > 0.0 && newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if (next - l2).abs() <= 1e-12 * l2 || hi - lo <= 1e-12 * hi {
                break;
            }
            l2 = next;
        }
        best
    }

    /// The term over both budgets: the least of the first budget's own term and the two-budget
    /// value at the multipliers the search reaches (module docs).
    pub(super) fn joint_two(&self, second: &Second, prices: &[CoinPrices]) -> Joint {
        let rs = self.responses(prices);
        let at = self.tangent(1.0, 0.0);
        let one = self.joint_at(at, prices, &rs);
        let Some(l) = self.multipliers(second, at, &rs) else { return one };
        let two = self.joint_at_two(second, at, prices, &rs, l);
        if two.value < one.value {
            two
        } else {
            one
        }
    }

    /// Φ at the multipliers `l`, with the trade it prices and its Hessian in the prices.
    fn joint_at_two(
        &self,
        second: &Second,
        at: Tangent,
        prices: &[CoinPrices],
        rs: &[Response],
        l: [f64; 2],
    ) -> Joint {
        crate::route::clock::count_work();
        let n = self.coins.len();
        let size = n.saturating_mul(2);
        let mut joint = self.allowances(prices);
        let slack = l[0] * at.slack + l[1] * second.slack;
        joint.value += slack;
        joint.magnitude += slack;
        let mut active = Vec::with_capacity(n);
        let mut lagrange = Derivatives::default();
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let mn = self.coefficients(second, at, t);
            let Some(m) = self.move_of(mn, r, c.x, l) else { continue };
            let phi = [Self::phi(mn[0], m.z, c.x), Self::phi(mn[1], m.z, c.x)];
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
            joint.budget[t] = phi[0];
            if m.k > 0.0 && m.z > 0.0 && m.a.is_finite() {
                let slope = [mn[0][0] + mn[0][1] / m.z, mn[1][0] + mn[1][1] / m.z];
                let per = m.z * m.z / m.k;
                for i in 0..2 {
                    for j in 0..2 {
                        lagrange.second[i][j] += slope[i] * slope[j] * per;
                    }
                }
                active.push(Active2 {
                    variable: if m.deposit { tender(t) } else { receive(t) },
                    own: per * conversion * conversion,
                    cross: [-slope[0] * per * conversion, -slope[1] * per * conversion],
                });
            }
        }
        schur2(&active, &lagrange.second, l, &mut joint.hessian, size);
        joint
    }
}

/// Adds the term's Hessian in the prices, the binding multipliers eliminated:
/// own − C·M⁻¹·Cᵀ over the multipliers that are positive (M their block of Φ's Hessian). Each
/// diagonal is kept ≥ 0 (it is in exact arithmetic; a rounding below 0 would leave Newton a
/// Hessian no damping fixes, as `schur` in the parent says).
fn schur2(active: &[Active2], m: &[[f64; 2]; 2], l: [f64; 2], hessian: &mut [f64], size: usize) {
    let binding: Vec<usize> = (0..2).filter(|&j| l[j] > 0.0 && m[j][j] > 0.0).collect();
    // M⁻¹ over the binding block (a 1×1 or 2×2 inverse; a singular 2×2 keeps its first row).
    let mut inverse = [[0.0; 2]; 2];
    match binding[..] {
        [j] => inverse[j][j] = 1.0 / m[j][j],
        [_, _] => {
            let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
            if det > 1e-12 * m[0][0] * m[1][1] {
                inverse = [[m[1][1] / det, -m[0][1] / det], [-m[1][0] / det, m[0][0] / det]];
            } else {
                inverse[0][0] = 1.0 / m[0][0];
            }
        }
        _ => {}
    }
    let quadratic = |a: &[f64; 2], b: &[f64; 2]| {
        (0..2).map(|i| (0..2).map(|j| a[i] * inverse[i][j] * b[j]).sum::<f64>()).sum::<f64>()
    };
    for a in active {
        let at = a.variable.saturating_mul(size).saturating_add(a.variable);
        hessian[at] += (a.own - quadratic(&a.cross, &a.cross)).max(0.0);
        for b in active.iter().filter(|b| b.variable != a.variable) {
            let cell = a.variable.saturating_mul(size).saturating_add(b.variable);
            hessian[cell] -= quadratic(&a.cross, &b.cross);
        }
    }
}
