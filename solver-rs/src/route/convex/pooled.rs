//! The convex bound's term for a venue whose tokens share one state (a Curve pool of 2 to 4 coins):
//! every pair of its tokens can trade, and a trade on one pair moves the price of every other, so
//! no curve per pair bounds it (docs/solver-optimizer.md, *Venues of more than two tokens*).
//!
//! The family relaxes its pool to a **budget**: a final state z (one amount per coin, in the
//! budget's units) is reachable by any sequence of swaps only if
//!
//! Σ_t (z_t − x_t) + κ·(1 − e^(−u)) ≥ −slack, u = Σ_t ln(z_t / x_t)
//!
//! (x the state now; `pools/stableswap/bound.rs` proves this for StableSwap). That set is convex
//! but not separable; e^(−u) lies above each of its tangents, so it lies inside the separable
//!
//! B(z) = Σ_t [(z_t − x_t) + κ·w·ln(z_t / x_t)] ≥ −slack − κ·(1 − w·(1 + u₀)), w = e^(−u₀)
//!
//! for every tangent point u₀. The tangent at u₀ = 0 touches the pool's surface at x; a run of
//! swaps that moves the pool far (u far from 0) is bounded tightly only by the tangent near its
//! own end, so the term re-takes the tangent at the u its optimum reaches and keeps the least value
//! ([`Budget::joint`], [`Budget::pair_value`]): every tangent gives an upper bound, and at the
//! fixed point the relaxation is exact (the optimum of the set above). Each unit of coin t
//! the pool loses pays the trader at most `keep_t`/`scale_t` raw units (the fee the pool keeps),
//! plus `allowance_t` raw units in all for the roundings of up to 64 swaps. B is separable and
//! concave, so the venue's term at prices
//! (per coin: the cheapest copy that tenders it, the dearest head that receives it) is
//!
//! sup over z in the budget of Σ_t value_t(z_t) = min over λ ≥ 0 of λ·slack + Σ_t h_t(λ)
//!
//! where h_t is coin t's best deposit or withdrawal against the budget's price λ, in closed form.
//! Any λ gives an upper bound (weak duality of this inner problem), so the 1-D minimisation may
//! stop anywhere. Only +, −, ×, ÷, √ are used ([`ln_ratio`]), so native and WASM agree to the bit.
//! A venue may hold two more budgets beside the first ([`Second`], a Curve meta pool's, joined by
//! the base pool's invariant: [`Level`]): the term is then the least of the first's and theirs,
//! with a multiplier per budget (`pooled_second.rs`, `pooled_meta.rs`). A budget linear in every
//! coin (κ = 0: WOOFi's vault) is a linear program, solved apart (`pooled_linear.rs`).

/// One coin of a pooled venue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coin {
    /// The pool's amount now, in the budget's units (> 0).
    pub x: f64,
    /// Budget units per raw unit of the coin.
    pub scale: f64,
    /// What a unit the pool loses pays the trader (≤ 1: the fee the pool keeps of it).
    pub keep: f64,
    /// Raw units the trader may receive beyond `keep`, over all the swaps of a plan (roundings).
    pub allowance: f64,
    /// A coin the budget prices linearly ((z − x) alone, no κ·ln term): a Curve meta pool's base
    /// coins (`pools/stableswap/bound.rs`). Its deposit never pays below the budget's price and
    /// its withdrawal, once it pays, takes all of `x`.
    pub linear: bool,
}

/// A pooled venue's relaxed set of reachable states.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    pub coins: Vec<Coin>,
    /// κ ≥ 0: the curvature of the budget (0: constant sum).
    pub kappa: f64,
    /// What the budget may fall by (roundings), ≥ 0.
    pub slack: f64,
    /// Two more budgets the same states satisfy (a Curve meta pool's and its base pool's, which keep
    /// both pools' curvature): the term is then the least of theirs and the first's ([`Second`],
    /// `pooled_second.rs`).
    pub second: Option<Second>,
}

/// Tangents the term re-takes at most (module docs); the value is the least over them.
const TANGENTS: usize = 6;

/// The budget's separable relaxation at one tangent point: κ·w and the slack it adds.
#[derive(Clone, Copy)]
struct Tangent {
    kappa: f64,
    slack: f64,
}

/// What a coin is worth to the venue's term at some prices, per raw unit (None: no arc of the
/// graph tenders or receives it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CoinPrices {
    pub tender: Option<f64>,
    pub receive: Option<f64>,
}

/// The venue's best trade against fixed prices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Joint {
    /// The term's value (at least the best plan's value at these prices).
    pub value: f64,
    /// The sum of the magnitudes of the terms added (for the certificate's float room).
    pub magnitude: f64,
    /// Per coin: raw units tendered to the pool.
    pub inputs: Vec<f64>,
    /// Per coin: raw units received from it (its allowance included where it is received).
    pub outputs: Vec<f64>,
    /// Per coin: budget units gained by its deposit, or spent by its withdrawal.
    pub budget: Vec<f64>,
    /// The term's second derivatives in the prices, over variables 2t (coin t's tender price) and
    /// 2t + 1 (its receive price), row-major (2n)².
    pub hessian: Vec<f64>,
}

/// Iterations of the 1-D minimisation at most (safeguarded Newton converges in a handful).
const ROUNDS: usize = 200;

/// A Newton step from the left of Φ''s root that leaves the bracket goes 1/`OVERSHOOT` of the way
/// from the bracket's top back to λ ([`Budget::minimiser`]): on 94 searches sampled from the
/// embedded market's quote, replayed, 35.5 rounds per search with halving, 19.6 with this.
const OVERSHOOT: f64 = 64.0;

/// One coin's response to the budget price λ.
#[derive(Clone, Copy, Default)]
struct Response {
    /// Budget units per raw unit, the price of its deposit (p) or withdrawal (q), per budget unit.
    deposit: Option<f64>,
    withdraw: Option<f64>,
}

impl Budget {
    /// The curvature coin `c` sees at the tangent's κ `k` (0 for a linear coin).
    fn kappa_of(c: &Coin, k: f64) -> f64 {
        if c.linear {
            0.0
        } else {
            k
        }
    }

    fn responses(&self, prices: &[CoinPrices]) -> Vec<Response> {
        self.coins
            .iter()
            .zip(prices)
            .map(|(c, p)| Response {
                deposit: p.tender.map(|t| t / c.scale),
                withdraw: p.receive.map(|r| r * c.keep / c.scale),
            })
            .collect()
    }

    /// The separable relaxation at tangent point u₀ (w = e^(−u₀)): κ·w, and the slack plus
    /// κ·(1 − w·(1 + u₀)) ≥ 0.
    fn tangent(&self, w: f64, u0: f64) -> Tangent {
        if u0 == 0.0 {
            return Tangent { kappa: self.kappa, slack: self.slack };
        }
        Tangent {
            kappa: self.kappa * w,
            // w and u₀ agree to about 10⁻¹⁵ (`ln_ratio`); the 10⁻¹² term covers their mismatch.
            slack: self.slack
                + (self.kappa * (1.0 - w * (1.0 + u0))).max(0.0)
                + 1e-12 * self.kappa * w * (1.0 + u0.abs()),
        }
    }

    /// Φ'(λ) = slack + Σ deposits' budget − Σ withdrawals' budget, and Φ''(λ).
    fn derivatives(&self, at: Tangent, rs: &[Response], lambda: f64) -> (f64, f64) {
        let (mut first, mut second) = (at.slack, 0.0);
        for (c, r) in self.coins.iter().zip(rs) {
            let k = Self::kappa_of(c, at.kappa);
            if let Some(p) = r.deposit {
                if lambda * (1.0 + k / c.x) > p {
                    let z = lambda * k / (p - lambda);
                    first += (z - c.x) + k * ln_ratio(z, c.x);
                    second += p * k * p / (lambda * (p - lambda) * (p - lambda));
                    continue;
                }
            }
            if let Some(q) = r.withdraw {
                if q > lambda * (1.0 + k / c.x) {
                    if c.linear {
                        first -= c.x;
                        continue;
                    }
                    let z = lambda * k / (q - lambda);
                    first -= (c.x - z) + k * ln_ratio(c.x, z);
                    second += q * k * q / (lambda * (q - lambda) * (q - lambda));
                }
            }
        }
        (first, second)
    }

    /// The budget price minimising Φ: where Φ' changes sign, in (0, the cheapest deposit price).
    fn minimiser(&self, at: Tangent, rs: &[Response]) -> Option<f64> {
        // Past the cheapest deposit price a deposit gains budget without end (B rises at least
        // as fast as z): Φ is infinite there.
        let ceiling = rs.iter().filter_map(|r| r.deposit).fold(f64::INFINITY, f64::min);
        // Above every withdrawal's activation nothing is withdrawn and Φ' ≥ slack ≥ 0.
        let top = self
            .coins
            .iter()
            .zip(rs)
            .filter_map(|(c, r)| r.withdraw.map(|q| q / (1.0 + Self::kappa_of(c, at.kappa) / c.x)))
            .fold(0.0f64, f64::max);
        if top <= 0.0 {
            // Nothing can be withdrawn (or is worth anything): λ = 0 and no trade.
            return None;
        }
        let (mut lo, mut hi) = (0.0, top.min(ceiling));
        if hi.is_nan() || hi <= 0.0 {
            // A coin tendered at no price funds any withdrawal: λ = 0.
            return Some(0.0);
        }
        let mut lambda = 0.5 * hi;
        for _ in 0..ROUNDS {
            let (first, second) = self.derivatives(at, rs, lambda);
            if first > 0.0 {
                hi = lambda;
            } else {
                lo = lambda;
            }
            let newton = lambda - first / second;
            // Φ' rises ever faster towards the deposit's pole at the bracket's top: a step from
            // the left of the root overshoots it, often past the bracket; it goes most of the way
            // to the top instead of halving (landing right of the root, whence Newton falls to it
            // without overshooting).
            let next = if second > 0.0 && newton > lo && newton < hi {
                newton
            } else if second > 0.0 && newton >= hi {
                hi - (hi - lambda) / OVERSHOOT
            } else {
                0.5 * (lo + hi)
            };
            if (next - lambda).abs() <= 1e-15 * lambda || hi - lo <= 1e-15 * hi {
                return Some(next);
            }
            lambda = next;
        }
        Some(lambda)
    }

    /// The venue's term at `prices` (one per coin, in the pool's order): the least over the
    /// tangents it re-takes at the u each one's optimum reaches (module docs), each an upper bound.
    pub fn joint(&self, prices: &[CoinPrices]) -> Joint {
        if self.is_linear() {
            return self.joint_linear(prices).0;
        }
        if let Some(second) = &self.second {
            return self.joint_two(second, prices);
        }
        let rs = self.responses(prices);
        let mut best = self.joint_at(self.tangent(1.0, 0.0), prices, &rs);
        // w = e^(−u) at the state the last tangent's trade reaches, from the coins' ratios (no
        // exp: native and WASM agree to the bit).
        let mut reached = self.ratio_product(&best);
        let mut u0 = 0.0;
        // A budget with linear coins was relaxed past its curve's tangents (a meta pool's, whose
        // κ is the meta pool's own): its first tangent is the only one it has.
        let tangents = if self.coins.iter().any(|c| c.linear) { 1 } else { TANGENTS };
        for _ in 1..tangents {
            let Some(w) = reached else { break };
            let u = ln_ratio(1.0, w);
            if !(self.kappa > 0.0 && u.is_finite()) || (u - u0).abs() <= 1e-9 {
                break;
            }
            u0 = u;
            let current = self.joint_at(self.tangent(w, u0), prices, &rs);
            reached = self.ratio_product(&current);
            if current.value < best.value {
                best = current;
            }
        }
        best
    }

    /// Π_t x_t / z_t at the state a joint's trade reaches (e^(−u)); None when a coin would empty.
    fn ratio_product(&self, joint: &Joint) -> Option<f64> {
        let mut w = 1.0;
        for (t, c) in self.coins.iter().enumerate() {
            let z = c.x + joint.inputs[t] * c.scale - self.withdrawn(t, joint);
            if z.is_nan() || z <= 0.0 {
                return None;
            }
            w *= c.x / z;
        }
        (w.is_finite() && w > 0.0).then_some(w)
    }

    /// Budget units coin `t` lost in `joint`'s trade (its allowance left out).
    fn withdrawn(&self, t: usize, joint: &Joint) -> f64 {
        let c = &self.coins[t];
        if joint.budget[t] < 0.0 {
            (joint.outputs[t] - c.allowance).max(0.0) * c.scale / c.keep
        } else {
            0.0
        }
    }

    /// A term with no trade: the roundings' allowance, paid wherever a coin is received, traded
    /// or not.
    fn allowances(&self, prices: &[CoinPrices]) -> Joint {
        let n = self.coins.len();
        let mut joint = Joint {
            inputs: vec![0.0; n],
            outputs: vec![0.0; n],
            budget: vec![0.0; n],
            hessian: vec![0.0; n.saturating_mul(n).saturating_mul(4)],
            ..Joint::default()
        };
        for (t, (c, p)) in self.coins.iter().zip(prices).enumerate() {
            if let Some(r) = p.receive {
                joint.outputs[t] = c.allowance;
                joint.value += r * c.allowance;
                joint.magnitude += r * c.allowance;
            }
        }
        joint
    }

    /// The term at one tangent, and the u = Σ ln(z_t/x_t) its trade reaches.
    fn joint_at(&self, at: Tangent, prices: &[CoinPrices], rs: &[Response]) -> Joint {
        crate::route::clock::count_work();
        let n = self.coins.len();
        let mut joint = self.allowances(prices);
        let Some(lambda) = self.minimiser(at, rs) else { return joint };
        if lambda <= 0.0 {
            // Everything withdrawable is withdrawn (what the sup tends to; the free deposit's
            // size is left out of the flows).
            for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
                if let Some(q) = r.withdraw {
                    joint.value += q * c.x;
                    joint.magnitude += q * c.x;
                    joint.outputs[t] += c.x * c.keep / c.scale;
                }
            }
            return joint;
        }
        joint.value += lambda * at.slack;
        joint.magnitude += lambda * at.slack;
        // Each trading coin's price variable, for the Schur complement eliminating λ.
        let size = n.saturating_mul(2);
        let mut active = Vec::with_capacity(n);
        for (t, (c, r)) in self.coins.iter().zip(rs).enumerate() {
            let k = Self::kappa_of(c, at.kappa);
            if let Some(p) = r.deposit {
                if lambda * (1.0 + k / c.x) > p {
                    let z = lambda * k / (p - lambda);
                    let (delta, gain) = (z - c.x, (z - c.x) + k * ln_ratio(z, c.x));
                    joint.value += lambda * gain - p * delta;
                    joint.magnitude += lambda * gain.abs() + p * delta;
                    joint.inputs[t] = delta / c.scale;
                    joint.budget[t] = gain;
                    // ∂δ/∂p = −λκ/(p − λ)², and p = tender / scale.
                    let dz = lambda * k / ((p - lambda) * (p - lambda));
                    active.push(Active {
                        variable: tender(t),
                        own: dz / (c.scale * c.scale),
                        cross: -(p / lambda) * dz / c.scale,
                        second: (p / lambda) * (p / lambda) * dz,
                    });
                    continue;
                }
            }
            if let Some(q) = r.withdraw {
                if q > lambda * (1.0 + k / c.x) {
                    let z = if c.linear { 0.0 } else { lambda * k / (q - lambda) };
                    let cost = if c.linear { c.x } else { (c.x - z) + k * ln_ratio(c.x, z) };
                    let w = c.x - z;
                    joint.value += q * w - lambda * cost;
                    joint.magnitude += q * w + lambda * cost.abs();
                    joint.outputs[t] += w * c.keep / c.scale;
                    joint.budget[t] = -cost;
                    // ∂w/∂q = λκ/(q − λ)², and q = receive · keep / scale.
                    let dz = lambda * k / ((q - lambda) * (q - lambda));
                    let per = c.keep / c.scale;
                    active.push(Active {
                        variable: receive(t),
                        own: dz * per * per,
                        cross: -(q / lambda) * dz * per,
                        second: (q / lambda) * (q / lambda) * dz,
                    });
                }
            }
        }
        schur(&active, &mut joint.hessian, size);
        joint
    }

    /// The pair (t → u) alone: its marginal rate at zero size (raw u per raw t).
    pub fn first_rate(&self, t: usize, u: usize) -> f64 {
        let (ct, cu) = (&self.coins[t], &self.coins[u]);
        let (kt, ku) = (Self::kappa_of(ct, self.kappa), Self::kappa_of(cu, self.kappa));
        ct.scale * (1.0 + kt / ct.x) * cu.keep / (cu.scale * (1.0 + ku / cu.x))
    }

    /// The pair (t → u) alone: the most `input` raw units of t can pay in u, by the budget at
    /// its first tangent (u₀ = 0: a concave curve in `input`, loose for large inputs; the joint
    /// term, which the certificate uses, re-takes it).
    pub fn pair_value(&self, t: usize, u: usize, input: f64) -> f64 {
        let (ct, cu) = (&self.coins[t], &self.coins[u]);
        let (kt, k) = (Self::kappa_of(ct, self.kappa), Self::kappa_of(cu, self.kappa));
        let delta = input.max(0.0) * ct.scale;
        let gain = delta + kt * ln_ratio(ct.x + delta, ct.x) + self.slack;
        // The withdrawal w whose cost w + κ·ln(x/(x − w)) is `gain`: the cost rises from 0 at w = 0
        // without bound as w → x.
        let hi = largest_withdrawal(|w| w + k * ln_ratio(cu.x, cu.x - w), gain, cu.x);
        let hi = match &self.second {
            Some(second) => hi.min(second.pair_withdrawal(t, u, delta, ct.x, cu.x)),
            None => hi,
        };
        hi * cu.keep / cu.scale + cu.allowance
    }
}

/// An upper end on the withdrawal w ≤ `x` whose `cost` (rising from 0 at w = 0) is `gain`, by
/// bisection.
fn largest_withdrawal(cost: impl Fn(f64) -> f64, gain: f64, x: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, x);
    for _ in 0..ROUNDS {
        let mid = 0.5 * (lo + hi);
        if !(mid > lo && mid < hi) {
            break;
        }
        if cost(mid) <= gain {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// One trading coin's share of the term's second derivatives: its price variable, ∂²/∂price² at
/// fixed λ (`own`), ∂(budget)/∂price (`cross`), and its part of Φ''(λ) (`second`); for each,
/// cross² = own · second.
struct Active {
    variable: usize,
    own: f64,
    cross: f64,
    second: f64,
}

/// Adds the term's Hessian in the prices, λ eliminated: own − cross·crossᵀ / Σ second. The
/// diagonal is own·(Σ of the *other* coins' second)/Σ second, never own − cross²/Σ second: with one
/// coin trading (a withdrawal funded by the slack alone) those two cancel exactly, and the
/// subtraction left −10⁻¹⁵ where the truth is 0, a Hessian no damping could make positive (its
/// floor is relative to the largest diagonal, then 0), so Newton never took a step
/// (docs/solver-optimizer.md, *Venues of more than two tokens*). Summed this way every diagonal is
/// ≥ 0 and a lone coin's is exactly 0.
fn schur(active: &[Active], hessian: &mut [f64], size: usize) {
    let total: f64 = active.iter().map(|a| a.second).sum();
    if !(total > 0.0 && total.is_finite()) {
        active.iter().for_each(|a| hessian[entry(a.variable, a.variable, size)] += a.own);
        return;
    }
    for (i, a) in active.iter().enumerate() {
        let others: f64 =
            active.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, b)| b.second).sum();
        hessian[entry(a.variable, a.variable, size)] += a.own * (others / total);
        for b in active.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, b)| b) {
            hessian[entry(a.variable, b.variable, size)] -= a.cross * b.cross / total;
        }
    }
}

fn entry(row: usize, column: usize, size: usize) -> usize {
    row.saturating_mul(size).saturating_add(column)
}

/// The price variable of coin `t`'s tender (2t) in [`Joint::hessian`].
pub fn tender(t: usize) -> usize {
    t.saturating_mul(2)
}

/// The price variable of coin `t`'s receive (2t + 1) in [`Joint::hessian`].
pub fn receive(t: usize) -> usize {
    tender(t).saturating_add(1)
}

/// Terms of [`ln_ratio`]'s atanh series (its comment says why more would not change a bit).
pub(crate) const SERIES_TERMS: usize = 6;

/// ln(a / b) for a, b > 0 with only +, −, ×, ÷ and √: halved by square roots until a/b is within
/// 10% of 1, then 2·atanh((a − b)/(a + b)) by its series. Relative error near 10⁻¹⁵ (each square
/// root rounds once; a ratio of 10³⁰⁰ needs 13 of them).
pub fn ln_ratio(a: f64, b: f64) -> f64 {
    if !(a > 0.0 && b > 0.0) {
        return if a > 0.0 { f64::INFINITY } else { f64::NEG_INFINITY };
    }
    let (mut a, mut b, mut times) = (a, b, 1.0);
    while (a - b).abs() > 0.05 * (a + b) {
        a = a.sqrt();
        b = b.sqrt();
        times *= 2.0;
    }
    let u = (a - b) / (a + b);
    let u2 = u * u;
    // Σ u^(2k+1)/(2k+1): |u| ≤ 0.05, so u² ≤ 0.0025 and six terms leave below 10⁻¹⁷ relative.
    // The seventh, u¹³/13 ≤ 1.9·10⁻¹⁷·|u|, and each after it is below half the spacing of floats
    // at the sum (≥ 2⁻⁵⁵·|sum|, and |sum| ≥ |u|: the terms share u's sign), so adding it would
    // round back to the same sum: six terms give the bits nine gave
    // (`ln_ratio_six_terms_are_nine_to_the_bit`).
    let mut term = u;
    let mut sum = 0.0;
    let mut odd = 1.0;
    for _ in 0..SERIES_TERMS {
        sum += term / odd;
        term *= u2;
        odd += 2.0;
    }
    2.0 * times * sum
}

#[path = "pooled_second.rs"]
mod second;
pub use second::Second;

#[path = "pooled_meta.rs"]
mod meta;
pub use meta::Level;

#[path = "pooled_linear.rs"]
mod linear;
pub use linear::LinearPair;

#[cfg(test)]
#[path = "pooled_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "pooled_vault_tests.rs"]
pub(crate) mod vault_tests;
