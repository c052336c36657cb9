//! Curve StableSwap's integer math as the pools' `exchange` runs it: the invariant D (`get_D`), the
//! balance that keeps it (`get_y`), the off-peg fee (`_dynamic_fee`), A along its ramp (`_A`) and
//! the bounds NG's oracle upkeep checks after a swap. Vyper checks every uint256 operation: a
//! result outside [0, 2^256) or a division by zero reverts, so each is a checked operation here.

use crate::math::U256;
use crate::pools::PoolError;

/// 10^18: the rates' and the oracle's precision.
pub const PRECISION: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);
/// 10^10: fees are fractions of it.
pub const FEE_DENOMINATOR: U256 = U256::from_limbs([10_000_000_000, 0, 0, 0]);
/// A is stored times 100 (NG and the legacy factory template).
pub const A_PRECISION: U256 = U256::from_limbs([100, 0, 0, 0]);
/// Half of every swap fee goes to the admin (NG and the legacy factory template fix it; the
/// original template stores its own `admin_fee`).
pub const ADMIN_FEE: U256 = U256::from_limbs([5_000_000_000, 0, 0, 0]);
/// The iteration cap of `get_D` and `get_y`; past it the pools revert.
const ITERATIONS: usize = 255;

pub use crate::math::checked::{add, div, mul, sub};

fn small(n: usize) -> U256 {
    U256::from(n)
}

/// Whether two Newton iterates are within one unit (both loops stop there).
fn converged(a: U256, b: U256) -> bool {
    a.abs_diff(b) <= U256::from(1)
}

/// The stored A (times 100) at `timestamp`: linear between the ramp's ends, then its end.
pub fn amp_at(ramp: &Ramp, timestamp: U256) -> Result<U256, PoolError> {
    if timestamp >= ramp.future_time {
        return Ok(ramp.future_a);
    }
    let elapsed = sub(timestamp, ramp.initial_time)?;
    let span = sub(ramp.future_time, ramp.initial_time)?;
    if ramp.future_a > ramp.initial_a {
        add(ramp.initial_a, div(mul(sub(ramp.future_a, ramp.initial_a)?, elapsed)?, span)?)
    } else {
        sub(ramp.initial_a, div(mul(sub(ramp.initial_a, ramp.future_a)?, elapsed)?, span)?)
    }
}

/// A ramp of A: from `initial_a` at `initial_time` to `future_a` at `future_time` (A times 100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ramp {
    pub initial_a: U256,
    pub future_a: U256,
    pub initial_time: U256,
    pub future_time: U256,
}

/// How a template's `get_D` and `get_y` read the stored A: its unit (`A_PRECISION`, or 1 in the
/// original 3pool-era template, which stores A itself: `(Ann − 1)·D`, `D / Ann`) and whether they
/// revert at the iteration cap (the original template's loops end and return the last iterate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub a_precision: U256,
    pub revert_at_cap: bool,
}

/// NG's and the legacy factory template's invariant.
pub const PRECISE: Invariant = Invariant { a_precision: A_PRECISION, revert_at_cap: true };
/// curve-contract's original template (StableSwap3Pool.vy, Vyper 0.2.4): A unscaled, no revert.
pub const ORIGINAL: Invariant =
    Invariant { a_precision: U256::from_limbs([1, 0, 0, 0]), revert_at_cap: false };

/// The invariant D of balances `xp` (in 18-decimal units) at `amp`, as the pools compute it
/// (D_P divided by x·N at each coin) under the template's [`Invariant`].
pub fn get_d(xp: &[U256], amp: U256, inv: Invariant) -> Result<U256, PoolError> {
    let n = small(xp.len());
    let mut s = U256::ZERO;
    for &x in xp {
        s = add(s, x)?;
    }
    if s.is_zero() {
        return Ok(U256::ZERO);
    }
    let mut d = s;
    let ann = mul(amp, n)?;
    for _ in 0..ITERATIONS {
        let mut d_p = d;
        for &x in xp {
            d_p = div(mul(d_p, d)?, mul(x, n)?)?;
        }
        let d_prev = d;
        let ap = inv.a_precision;
        let numerator = mul(add(div(mul(ann, s)?, ap)?, mul(d_p, n)?)?, d)?;
        let denominator = add(div(mul(sub(ann, ap)?, d)?, ap)?, mul(add(n, small(1))?, d_p)?)?;
        d = div(numerator, denominator)?;
        if converged(d, d_prev) {
            return Ok(d);
        }
    }
    if inv.revert_at_cap {
        return Err(PoolError::NoConvergence);
    }
    Ok(d)
}

/// The balance of the coin left out of `others` (the other coins' balances) that puts an `n`-coin
/// pool on the invariant `d`: `get_y`'s Newton iteration y ← (y² + c) / (2y + b − D) from y = D,
/// under the template's [`Invariant`].
pub fn solve_y(
    others: &[U256],
    n: usize,
    amp: U256,
    d: U256,
    inv: Invariant,
) -> Result<U256, PoolError> {
    let n = small(n);
    let ap = inv.a_precision;
    let ann = mul(amp, n)?;
    let mut s = U256::ZERO;
    let mut c = d;
    for &x in others {
        s = add(s, x)?;
        c = div(mul(c, d)?, mul(x, n)?)?;
    }
    let c = div(mul(mul(c, d)?, ap)?, mul(ann, n)?)?;
    let b = add(s, div(mul(d, ap)?, ann)?)?;
    let mut y = d;
    for _ in 0..ITERATIONS {
        let y_prev = y;
        y = div(add(mul(y, y)?, c)?, sub(add(mul(small(2), y)?, b)?, d)?)?;
        if converged(y, y_prev) {
            return Ok(y);
        }
    }
    if inv.revert_at_cap {
        return Err(PoolError::NoConvergence);
    }
    Ok(y)
}

/// NG's `_dynamic_fee`: the fee raised where the pair's balances are apart, by up to the off-peg
/// multiplier (none at or below 10^10).
pub fn dynamic_fee(xpi: U256, xpj: U256, fee: U256, multiplier: U256) -> Result<U256, PoolError> {
    if multiplier <= FEE_DENOMINATOR {
        return Ok(fee);
    }
    let sum = add(xpi, xpj)?;
    let xps2 = mul(sum, sum)?;
    let spread =
        div(mul(mul(mul(sub(multiplier, FEE_DENOMINATOR)?, small(4))?, xpi)?, xpj)?, xps2)?;
    div(mul(multiplier, fee)?, add(spread, FEE_DENOMINATOR)?)
}

/// What NG's `exchange` checks after the swap in `upkeep_oracles`: `_get_p`'s checked math and the
/// 2^128 bounds `pack_2` puts on each spot price and on D (the moving averages cannot revert).
pub fn check_oracle_upkeep(xp: &[U256], amp: U256, d: U256) -> Result<(), PoolError> {
    let n = xp.len();
    // 2^128.
    let bound = U256::from_limbs([0, 0, 1, 0]);
    let ann = mul(amp, small(n))?;
    let mut nn = U256::from(1);
    for _ in 0..n {
        nn = mul(nn, small(n))?;
    }
    let mut dr = div(d, nn)?;
    for &x in xp {
        dr = div(mul(dr, d)?, x)?;
    }
    let xp0_a = div(mul(ann, xp[0])?, A_PRECISION)?;
    for &xk in &xp[1..] {
        let p = div(mul(PRECISION, add(xp0_a, div(mul(dr, xp[0])?, xk)?)?)?, add(xp0_a, dr)?)?;
        if p >= bound {
            return Err(PoolError::InvalidState("the spot price passes 2^128".into()));
        }
    }
    if d >= bound {
        return Err(PoolError::InvalidState("D passes 2^128".into()));
    }
    Ok(())
}
