//! How far the price a tick recomputes from its reserves can drift against a run of swaps in one
//! direction: the relative margin the bound puts on the first tick's rate (`bound.rs`), derived
//! from the pool's rounding, not measured.
//!
//! In real numbers a tick of liquidity L between the edges l < u holds a = L(p − l) and
//! b = L(1/p − 1/u) at the price p, so a/b = (p − l)/(1/p − 1/u) rises with p: the price is a rising
//! function p*(a/b) of the reserves' ratio alone, whatever L is. A swap with A in raises a and
//! lowers b, so p* only rises along the run (B in: only falls). The pool's price p̂ is p*'s
//! evaluation with floors (`tick_liquidity`, `price_in_tick`); if every state's ln p̂ lies within
//! e⁺ above and e⁻ below its ln p*, every later p̂ (A in) is at least p̂₀·exp(−e⁺₀ − e⁻), and the
//! first tick's rate (1 − fee)/p̂² grows by at most exp(2(e⁺₀ + e⁻)) − 1 (B in: the rate p̂², the
//! same with the roles of e⁺ and e⁻ exchanged). The floors, on 18-decimal integers (p the square
//! root price, as the pool keeps it):
//! - `getTickL` returns L̂ ≤ L (every step floors): `half` loses 1.5, `inner`'s three floors 3·10^18
//!   (so the root loses √3·10^18 < 1.74·10^9), the root's floor times 10^9 another 10^9, so
//!   half + root is short by at most 2.75·10^9 and L̂ by E = 2.75·10^9·u/(u − l) + 2; by
//!   (2.75·10^9·u/(u − l) + 1)/2^57 + 2 when both reserves are under 2^78 (bumped by 2^57);
//!   η = (L − L̂)/L ≤ E/(L̂ + E).
//! - The ratio R(L) = (a + L·l)/(b + L/u) has |d ln R / d ln L| = |L·l/(a + L·l) − L/(u·b + L)|
//!   ≤ (1 − l/u) + η between L̂ and L (each term is within (1 − η) of l/p* and p*/u), so
//!   |ln R(L̂) − ln R(L)| ≤ k(η) = ((u − l)/u + η)·η/(1 − η): the tick's width cancels most of L's
//!   error.
//! - N̂ = a + ⌊L̂·l⌋ and D̂ = b + ⌊L̂/u⌋ lose one unit each, the ratio's division one unit of R̂,
//!   the root's floor one unit of p̂ (−ln(1 − 1/x) ≤ 2/x for x ≥ 2): e⁺ ≤ ½(k(η) + 2/D̂),
//!   e⁻ ≤ ½(k(η) + 2/N̂ + 2/R̂) + 2√2/l (R̂ ≥ l²/(2·10^18) and √(R̂·10^18) ≥ l/√2 where
//!   l² ≥ 4·10^18 and the other errors are small). Holding p̂ to [l, u] only moves it toward
//!   p*.
//!
//! Later states are bounded through L: the pool prices each swap at p̂ with L̂ + 1, which pays at
//! most (p*/p̂)²·(1 + 1/L) − 1 ≤ 4e⁻ + 2/L more than the curve of the tick's L would; that excess
//! output lowers L by at most p·u/(u − l) per unit, and all swaps together take at most the
//! tick's b₀ ≤ L₀·(u − l)/(l·u), so L falls over the whole run by at most
//! (4e + 2/L_min)·(u/l)·L₀ (fees only raise it). Where that is at most half, by induction over the
//! swaps every state has L ≥ L_min = L̂₀/2 and the errors above with η ≤ E/L_min,
//! N̂ ≥ L_min·(1 − η)·l − 1, D̂ ≥ L_min·(1 − η)/u − 1 hold for the whole run. A state with a reserve of 2^78 or
//! more is not bumped but has L ≥ 2^78·min(1/(u − l), l·u/(u − l)).
//!
//! Where the conditions fail (dust ticks, prices at the tick range's ends) or the margin exceeds
//! [`MAX_DRIFT`], the first tick is bounded at its best edge (lower for A in), which holds for
//! any state.

/// 10^18 as f64.
const ONE: f64 = 1e18;
/// getTickL's shortfall in half + root, in the bumped units (see the module docs).
const ROOT_SHORTFALL: f64 = 2.75e9;
/// 2^57, getTickL's precision bump.
const BUMP: f64 = 144_115_188_075_855_872.0;
/// 2^78: reserves under it on both sides are bumped.
const BUMPED_BELOW: f64 = 302_231_454_903_657_293_676_544.0;
/// Above this the tick's edge is about as good a bound.
pub const MAX_DRIFT: f64 = 1e-6;

/// One tick's start: its edges' square-root prices and reserves (18 decimals) and the liquidity
/// `getTickL` computes from them.
pub struct TickStart {
    pub lower: f64,
    pub upper: f64,
    pub reserves: [f64; 2],
    pub liquidity: f64,
}

/// The relative margin on the rate at the tick's recomputed price that covers every later swap
/// of a run in the direction (A in: up); None where the derivation's conditions fail.
pub fn drift_margin(tick: &TickStart, token_a_in: bool) -> Option<f64> {
    let (l, u, liquidity) = (tick.lower, tick.upper, tick.liquidity);
    let width = (u - l) / u;
    let shortfall = ROOT_SHORTFALL / width;
    let (plain, bumped) = (shortfall + 2.0, (shortfall + 1.0) / BUMP + 2.0);
    let start_error = if tick.reserves.iter().all(|r| *r < BUMPED_BELOW) { bumped } else { plain };
    let least = liquidity / 2.0;
    let unbumped_least = BUMPED_BELOW * (ONE / (u - l)).min(l * u / ((u - l) * ONE));
    let eta_start = start_error / (liquidity + start_error);
    let eta_run = (bumped / least).max(plain / least.max(unbumped_least));
    let k = |eta: f64| (width + eta) * eta / (1.0 - eta);
    let ratio_least = l * l / (2.0 * ONE);
    let below = |eta: f64, n: f64| {
        0.5 * (k(eta) + 2.0 / n + 2.0 / ratio_least) + 2.0 * std::f64::consts::SQRT_2 / l
    };
    let above = |eta: f64, d: f64| 0.5 * (k(eta) + 2.0 / d);
    // Any state's L̂ ≥ L·(1 − η) ≥ least·(1 − η).
    let computed_least = least * (1.0 - eta_run);
    let (n_run, d_run) = (computed_least * l / ONE - 1.0, computed_least * ONE / u - 1.0);
    let (n_start, d_start) = (
        tick.reserves[0] + liquidity * l / ONE - 1.0,
        tick.reserves[1] + liquidity * ONE / u - 1.0,
    );
    let start_floor = if token_a_in { d_start } else { n_start };
    if !(eta_run < 0.01 && ratio_least >= 2.0 && n_run >= 2.0 && d_run >= 2.0 && start_floor >= 2.0)
    {
        return None;
    }
    // A in: the start may sit above its p*, later states below theirs; B in the reverse.
    let (up, down, run) = if token_a_in {
        (above(eta_start, d_start), below(eta_run, n_run), below(eta_run, n_run))
    } else {
        (above(eta_run, d_run), below(eta_start, n_start), above(eta_run, d_run))
    };
    let loss = (4.0 * run + 2.0 / least) * (u / l);
    let growth = (2.0 * (up + down)).exp_m1();
    (loss <= 0.5 && growth.is_finite() && growth <= MAX_DRIFT).then_some(growth)
}
