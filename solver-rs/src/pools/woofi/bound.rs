//! Rates of the vault for ranking and for the convex bound, in real numbers (raw out per raw in).
//!
//! Why the bound's curve holds for any sequence of swaps on the whole vault, through any of its
//! pairs and in any order: a swap pays at most its input at the oracle price with γ = 0, less the
//! spread and the fee (every step of the contract floors, γ ≥ 0; the fee's own floor may leave one
//! raw quote unit a swap, allowed for in [`sequence_pieces`]). Within
//! one block the oracle can only be at prices where a swap does not revert: a fresh posted price
//! within the Chainlink bound of the fixed reference (`price()`'s feasibility), or the reference
//! itself, and strictly inside the guardian's range either way. So each base's price over the whole
//! plan lies in one interval, and its spread only widens (`postPrice`), whatever the other pairs
//! do. A base the oracle refuses now stays refused: only a swap of that base moves its price.
//! Each swap's input is capped by the max notional and max gamma guards, so `swaps` swaps
//! take at most `swaps` times the cap. The curve is that rate up to that input, net of the fee past
//! the fee's roundings.
//!
//! A base's price moves only through swaps of that base in the vault, each against the trader:
//! selling it posts a lower price, buying it a higher one, and a posted price outside the Chainlink
//! bound refuses the next swap rather than falling back while fresh. So a base the plan only sells
//! to the vault trades at most at its price now, and one it only buys at least at it ([`OneWay`]):
//! the interval's far ends (the bound around the reference, up to 1 % each way) are reachable only
//! when the plan also trades the base the other way. The convex bound's graph knows which: no arc
//! enters tokenIn nor leaves tokenOut.

use super::arith::{div, mul, sub, E18};
use super::{WoofiPool, FEE_DENOMINATOR, PRICE_DEC};
use crate::math::U256;

fn real(x: U256) -> f64 {
    f64::from(x)
}

/// The interval of prices base `base` can trade at in this block (see the module's comment), or
/// None when the oracle refuses it now.
pub(super) fn price_interval(pool: &WoofiPool, base: usize) -> Option<(f64, f64)> {
    let now = pool.price_state(base).ok()?;
    let oracle = pool.oracle(base).ok()?;
    let at = |bound: U256| div(mul(oracle.ref_price, bound).ok()?, E18).ok();
    let (low, high) = (at(sub(E18, pool.bound).ok()?)?, at(E18.checked_add(pool.bound)?)?);
    let lo = now.price.min(oracle.ref_price).min(low).max(oracle.range_min);
    let hi = now.price.max(oracle.ref_price).max(high).min(oracle.range_max);
    (lo <= hi).then(|| (real(lo), real(hi)))
}

fn keep(spread: U256) -> f64 {
    (1.0 - real(spread) / real(E18)).max(0.0)
}

/// Raw quote per raw base at price `p` (8 decimals).
fn quote_per_base(pool: &WoofiPool, base: usize, p: f64) -> Option<f64> {
    let (qd, bd) = (real(pool.token(0).ok()?.unit), real(pool.token(base).ok()?.unit));
    Some(p * qd / (real(PRICE_DEC) * bd))
}

/// (rate, spread factor) of one swap at the prices `price(base) -> (low, high)` gives: the upper
/// rate before the fee.
fn rate_with(
    pool: &WoofiPool,
    token_in: usize,
    token_out: usize,
    price: impl Fn(usize) -> Option<(f64, f64)>,
) -> Option<f64> {
    let n = pool.token_count();
    if token_in == token_out || token_in >= n || token_out >= n || pool.paused {
        return None;
    }
    let spread = |b: usize| pool.oracle(b).ok().map(|o| o.spread);
    match (token_in, token_out) {
        (0, base) => {
            let (lo, _) = price(base)?;
            Some(keep(spread(base)?) / quote_per_base(pool, base, lo)?)
        }
        (base, 0) => {
            let (_, hi) = price(base)?;
            Some(keep(spread(base)?) * quote_per_base(pool, base, hi)?)
        }
        (b1, b2) => {
            let (_, hi) = price(b1)?;
            let (lo, _) = price(b2)?;
            let half = div(spread(b1)?.max(spread(b2)?), U256::from(2)).ok()?;
            Some(
                keep(half) * keep(half) * quote_per_base(pool, b1, hi)?
                    / quote_per_base(pool, b2, lo)?,
            )
        }
    }
}

/// An upper bound on one swap's rate from this state (its price now, γ = 0, no fee).
pub fn linear_rate(pool: &WoofiPool, token_in: usize, token_out: usize) -> Option<f64> {
    rate_with(pool, token_in, token_out, |b| {
        let p = real(pool.price_state(b).ok()?.price);
        Some((p, p))
    })
}

/// The marginal rate at zero size, fee included (for ranking only).
pub fn spot_rate(pool: &WoofiPool, token_in: usize, token_out: usize) -> Option<f64> {
    let fee = |t: usize| pool.token(t).ok().map(|t| t.fee_rate);
    let rate = match (token_in, token_out) {
        (0, base) | (base, 0) => fee(base)?,
        (b1, b2) => fee(b1)?.max(fee(b2)?),
    };
    let keep_fee = (1.0 - real(rate) / real(FEE_DENOMINATOR)).max(0.0);
    Some(linear_rate(pool, token_in, token_out)? * keep_fee)
}

/// The most raw input of `token_in` one swap can take past the guards of the base it sells (or,
/// selling quote, buys), at the lowest price the base can have this block.
pub(super) fn input_cap(pool: &WoofiPool, token_in: usize, token_out: usize) -> Option<f64> {
    let base = if token_in == 0 { token_out } else { token_in };
    let (lo, _) = price_interval(pool, base)?;
    let limits = pool.token(base).ok()?;
    let coeff = real(pool.oracle(base).ok()?.coeff);
    let (notional, gamma) = (real(limits.max_notional) + 1.0, real(limits.max_gamma) + 1.0);
    let qd = real(pool.token(0).ok()?.unit);
    if token_in == 0 {
        // The quote after the fee, q ≥ a·(1 − feeRate/10^5), is capped by both guards.
        let keep_fee = 1.0 - real(limits.fee_rate) / real(FEE_DENOMINATOR);
        let q = if coeff > 0.0 { notional.min(gamma * qd / coeff) } else { notional };
        return (keep_fee > 0.0).then(|| q / keep_fee);
    }
    let per_quote = 1.0 / quote_per_base(pool, base, lo)?;
    // γ = a·p·coeff/(10^8·10^bd) ≤ maxGamma.
    let by_gamma = gamma / coeff * per_quote * qd;
    Some(if coeff > 0.0 { (notional * per_quote).min(by_gamma) } else { notional * per_quote })
}

/// What a plan does with a side's two tokens elsewhere in the vault (see the module's comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OneWay {
    /// No swap of the plan buys `token_in` from the vault (it is the plan's tokenIn).
    pub input_only_sold: bool,
    /// No swap of the plan sells `token_out` to the vault (it is the plan's tokenOut).
    pub output_only_bought: bool,
}

/// The fee (a fraction) a swap from `token_in` to `token_out` pays in quote, and ρ: the most raw
/// output one raw quote unit buys where the fee is taken (the fee's floor leaves at most one raw
/// quote unit more than `(1 − fee)` of the quote), at the rate's prices.
fn fee_and_rounding(
    pool: &WoofiPool,
    token_in: usize,
    token_out: usize,
    rate: f64,
    price: impl Fn(usize) -> Option<(f64, f64)>,
) -> Option<(f64, f64)> {
    let fee = |t: usize| pool.token(t).ok().map(|t| real(t.fee_rate) / real(FEE_DENOMINATOR));
    let spread = |b: usize| pool.oracle(b).ok().map(|o| o.spread);
    match (token_in, token_out) {
        // The fee is taken from the quote paid out: one raw quote unit of rounding.
        (base, 0) => Some((fee(base)?, 1.0)),
        // The fee is taken from the quote paid in, before it buys at `rate` per raw quote.
        (0, base) => Some((fee(base)?, rate)),
        // The fee is taken from the quote between the halves, before it buys the second base.
        (b1, b2) => {
            // The second half buys at half the wider spread, at the lowest price b2 can have.
            let (lo, _) = price(b2)?;
            let half = div(spread(b1)?.max(spread(b2)?), U256::from(2)).ok()?;
            Some((fee(b1)?.max(fee(b2)?), keep(half) / quote_per_base(pool, b2, lo)?))
        }
    }
}

/// The bound's curve of the vault from `token_in` to `token_out` over up to `swaps` swaps: linear
/// pieces (width, rate), rates falling, or None when no swap that way can succeed this block.
///
/// One swap pays at most `rate` per unit of input, its fee (a fraction `f`, floored by the
/// contract) left out, and at most `rate·(1 − f)` per unit plus ρ for the fee's rounding: the
/// least of the two. Over `swaps` swaps of A in all, at most min(rate·A, rate·(1 − f)·A +
/// swaps·ρ): the full rate up to where the two meet (a fraction of a dollar), then the rate net of
/// the fee, up to the inputs' cap.
pub fn sequence_pieces(
    pool: &WoofiPool,
    token_in: usize,
    token_out: usize,
    swaps: u32,
    one_way: OneWay,
) -> Option<Vec<(f64, f64)>> {
    let price = |b: usize| {
        let (lo, hi) = price_interval(pool, b)?;
        let now = real(pool.price_state(b).ok()?.price);
        let lo = if b == token_out && one_way.output_only_bought { now } else { lo };
        let hi = if b == token_in && one_way.input_only_sold { now } else { hi };
        Some((lo, hi))
    };
    let rate = rate_with(pool, token_in, token_out, price)?;
    let width = input_cap(pool, token_in, token_out)? * f64::from(swaps);
    if !(rate > 0.0 && width > 0.0 && width.is_finite()) {
        return None;
    }
    let (fee, rho) = fee_and_rounding(pool, token_in, token_out, rate, price)?;
    let net = rate * (1.0 - fee);
    let kink = f64::from(swaps) * rho / (rate * fee);
    Some(if fee > 0.0 && net > 0.0 && kink < width {
        vec![(kink, rate), (width - kink, net)]
    } else {
        vec![(width, rate)]
    })
}
