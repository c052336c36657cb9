//! The E-CLP's swap math as Gyroscope's Balancer V2 pools compute it (the published
//! `GyroECLPMath`; `contracts/gyro/GyroECLPMath.sol` follows it): a circle of radius r stretched by
//! λ and rotated by φ (c = cos(−φ), s = sin(−φ)), bounded by the prices α and β, with the derived
//! τ(α), τ(β), u, v, w, z and dSq in 38 decimals. The invariant r is an underestimate with an
//! error bound; swaps use the vector (r + 2·err, r) so every rounding favours the pool. Each
//! operation, its order and its rounding direction are the published ones.

use super::fixed_point::{int, one_xp, FixedPoint};
use crate::math::signed::I256;
use crate::math::U256;
use crate::pools::PoolError;

type R = Result<I256, PoolError>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vector2 {
    pub x: I256,
    pub y: I256,
}

/// The pool's parameters (18 decimals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub alpha: I256,
    pub beta: I256,
    pub c: I256,
    pub s: I256,
    pub lambda: I256,
}

/// The derived parameters (38 decimals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    pub tau_alpha: Vector2,
    pub tau_beta: Vector2,
    pub u: I256,
    pub v: I256,
    pub w: I256,
    pub z: I256,
    pub d_sq: I256,
}

fn max_balances() -> I256 {
    int(10_000_000_000_000_000_000_000_000_000_000_000)
}

fn max_invariant() -> I256 {
    int(30_000_000_000_000_000_000_000_000_000_000_000_000)
}

fn refused(why: &str) -> PoolError {
    PoolError::InvalidState(format!("E-CLP: {why}"))
}

/// Gyroscope's square root of an 18-decimal number: a first guess from the magnitude, seven
/// Newton steps, and a check that the square is within 5 wei of the input.
pub fn sqrt(input: U256) -> Result<U256, PoolError> {
    use crate::math::checked::{add, div, mul, sub};
    if input.is_zero() {
        return Ok(U256::ZERO);
    }
    let e18 = U256::from(1_000_000_000_000_000_000u64);
    let mut guess = initial_guess(input);
    for _ in 0..7 {
        guess = div(add(guess, div(mul(input, e18)?, guess)?)?, U256::from(2))?;
    }
    let square = div(mul(guess, guess)?, e18)?;
    let slack = mul(guess, U256::from(5))?;
    let slack = if slack.is_zero() {
        slack
    } else {
        add(div(sub(slack, U256::from(1))?, e18)?, U256::from(1))?
    };
    if !(square <= add(input, slack)? && add(square, slack)? >= input) {
        return Err(refused("square root failed"));
    }
    Ok(guess)
}

fn initial_guess(input: U256) -> U256 {
    let e18 = U256::from(1_000_000_000_000_000_000u64);
    if input >= e18 {
        // x < 2^196, so n < 98 and 2^n·10^18 < 2^158: no shift or product here overflows.
        let mut x = input.checked_div(e18).unwrap_or_default();
        let mut n = 0usize;
        for (shift, half) in [(128, 64), (64, 32), (32, 16), (16, 8), (8, 4), (4, 2), (2, 1)] {
            if x >= U256::from(1).wrapping_shl(shift) {
                x = x.wrapping_shr(shift);
                n = n.saturating_add(half);
            }
        }
        return U256::from(1).wrapping_shl(n).saturating_mul(e18);
    }
    // √(10^−k) for k = 17, 16, …, 1 in 18 decimals, for inputs at most 10^(18−k).
    const GUESSES: [u64; 17] = [
        3_162_277_660,
        10_000_000_000,
        31_622_776_601,
        100_000_000_000,
        316_227_766_016,
        1_000_000_000_000,
        3_162_277_660_168,
        10_000_000_000_000,
        31_622_776_601_683,
        100_000_000_000_000,
        316_227_766_016_837,
        1_000_000_000_000_000,
        3_162_277_660_168_379,
        10_000_000_000_000_000,
        31_622_776_601_683_793,
        100_000_000_000_000_000,
        316_227_766_016_837_933,
    ];
    let mut bound = 10u64;
    for guess in GUESSES {
        if input <= U256::from(bound) {
            return U256::from(guess);
        }
        bound = bound.saturating_mul(10);
    }
    input
}

fn sqrt_signed(value: I256) -> R {
    if value.is_positive() {
        I256::from_unsigned(sqrt(value.magnitude())?)
    } else {
        Ok(I256::ZERO)
    }
}

/// a = r·(A⁻¹τ(β))_x, rounded up.
fn virtual_offset0(p: &Params, d: &Derived, r: &Vector2) -> R {
    let term_xp = d.tau_beta.x.div_xp(d.d_sq)?;
    let a = if d.tau_beta.x.is_positive() {
        r.x.mul_up_mag(p.lambda)?.mul_up_mag(p.c)?.mul_up_xp_to_np(term_xp)?
    } else {
        r.y.mul_down_mag(p.lambda)?.mul_down_mag(p.c)?.mul_up_xp_to_np(term_xp)?
    };
    a.add(r.x.mul_up_mag(p.s)?.mul_up_xp_to_np(d.tau_beta.y.div_xp(d.d_sq)?)?)
}

/// b = r·(A⁻¹τ(α))_y, rounded up.
fn virtual_offset1(p: &Params, d: &Derived, r: &Vector2) -> R {
    let term_xp = d.tau_alpha.x.div_xp(d.d_sq)?;
    let b = if d.tau_alpha.x.is_negative() {
        r.x.mul_up_mag(p.lambda)?.mul_up_mag(p.s)?.mul_up_xp_to_np(term_xp.neg()?)?
    } else {
        r.y.neg()?.mul_down_mag(p.lambda)?.mul_down_mag(p.s)?.mul_up_xp_to_np(term_xp)?
    };
    b.add(r.x.mul_up_mag(p.c)?.mul_up_xp_to_np(d.tau_alpha.y.div_xp(d.d_sq)?)?)
}

/// The largest balance of token 0 the invariant allows, rounded down.
fn max_balance0(p: &Params, d: &Derived, r: &Vector2) -> R {
    let term_xp1 = d.tau_beta.x.sub(d.tau_alpha.x)?.div_xp(d.d_sq)?;
    let term_xp2 = d.tau_beta.y.sub(d.tau_alpha.y)?.div_xp(d.d_sq)?;
    let xp = r.y.mul_down_mag(p.lambda)?.mul_down_mag(p.c)?.mul_down_xp_to_np(term_xp1)?;
    let second = if term_xp2.is_positive() { r.y.mul_down_mag(p.s)? } else { r.x.mul_up_mag(p.s)? };
    xp.add(second.mul_down_xp_to_np(term_xp2)?)
}

/// The largest balance of token 1 the invariant allows, rounded down.
fn max_balance1(p: &Params, d: &Derived, r: &Vector2) -> R {
    let term_xp1 = d.tau_beta.x.sub(d.tau_alpha.x)?.div_xp(d.d_sq)?;
    let term_xp2 = d.tau_alpha.y.sub(d.tau_beta.y)?.div_xp(d.d_sq)?;
    let yp = r.y.mul_down_mag(p.lambda)?.mul_down_mag(p.s)?.mul_down_xp_to_np(term_xp1)?;
    let second = if term_xp2.is_positive() { r.y.mul_down_mag(p.c)? } else { r.x.mul_up_mag(p.c)? };
    yp.add(second.mul_down_xp_to_np(term_xp2)?)
}

/// The invariant r of the (upscaled) balances, an underestimate, and its error bound.
pub fn invariant_with_error(
    balance0: U256,
    balance1: U256,
    p: &Params,
    d: &Derived,
) -> Result<(I256, I256), PoolError> {
    let x = I256::from_unsigned(balance0)?;
    let y = I256::from_unsigned(balance1)?;
    if x.add(y)? > max_balances() {
        return Err(refused("max assets exceeded"));
    }
    let at_a_chi = at_a_chi(x, y, p, d)?;
    let (root, mut err) = invariant_sqrt(x, y, p, d)?;
    err = if root.is_positive() {
        err.add(int(1))?.div_up_mag(int(2).mul(root)?)?
    } else if err.is_positive() {
        I256::from_unsigned(sqrt(err.magnitude())?)?
    } else {
        int(1_000_000_000)
    };
    err = p.lambda.mul_up_mag(x.add(y)?)?.div(one_xp())?.add(err)?.add(int(1))?.mul(int(20))?;
    let mul_denominator = one_xp().div_xp(a_chi_a_chi_xp(p, d)?.sub(one_xp())?)?;
    let invariant = at_a_chi.add(root)?.sub(err)?.mul_down_xp_to_np(mul_denominator)?;
    err = err.mul_up_xp_to_np(mul_denominator)?;
    let lambda_sq =
        p.lambda.mul(p.lambda)?.div(int(1_000_000_000_000_000_000_000_000_000_000_000_000))?;
    let extra =
        invariant.mul_up_xp_to_np(mul_denominator)?.mul(lambda_sq)?.mul(int(40))?.div(one_xp())?;
    err = err.add(extra)?.add(int(1))?;
    if invariant.add(err)? > max_invariant() {
        return Err(refused("max invariant exceeded"));
    }
    Ok((invariant, err))
}

fn at_a_chi(x: I256, y: I256, p: &Params, d: &Derived) -> R {
    let d_sq2 = d.d_sq.mul_xp(d.d_sq)?;
    let term_xp = d.w.div_down_mag(p.lambda)?.add(d.z)?.div_down_mag(p.lambda)?.div_xp(d_sq2)?;
    let mut val = x.mul_down_mag(p.c)?.sub(y.mul_down_mag(p.s)?)?.mul_down_xp_to_np(term_xp)?;
    let term_np = x
        .mul_down_mag(p.lambda)?
        .mul_down_mag(p.s)?
        .add(y.mul_down_mag(p.lambda)?.mul_down_mag(p.c)?)?;
    val = val.add(term_np.mul_down_xp_to_np(d.u.div_xp(d_sq2)?)?)?;
    let term_np = x.mul_down_mag(p.s)?.add(y.mul_down_mag(p.c)?)?;
    val.add(term_np.mul_down_xp_to_np(d.v.div_xp(d_sq2)?)?)
}

/// (Aχ)·(Aχ) in extra precision, rounded up.
fn a_chi_a_chi_xp(p: &Params, d: &Derived) -> R {
    let d_sq3 = d.d_sq.mul_xp(d.d_sq)?.mul_xp(d.d_sq)?;
    let mut val = p.lambda.mul_up_mag(int(2).mul(d.u)?.mul_xp(d.v)?.div_xp(d_sq3)?)?;
    let u1 = d.u.add(int(1))?;
    val = val.add(u1.mul_xp(u1)?.div_xp(d_sq3)?.mul_up_mag(p.lambda)?.mul_up_mag(p.lambda)?)?;
    val = val.add(d.v.mul_xp(d.v)?.div_xp(d_sq3)?)?;
    let term_xp = d.w.div_up_mag(p.lambda)?.add(d.z)?;
    val.add(term_xp.mul_xp(term_xp)?.div_xp(d_sq3)?)
}

fn d_sq4(d: &Derived) -> R {
    d.d_sq.mul_xp(d.d_sq)?.mul_xp(d.d_sq)?.mul_xp(d.d_sq)
}

fn min_atx_a_chiy_sq_plus_atx_sq(x: I256, y: I256, p: &Params, d: &Derived) -> R {
    let mut term_np = x
        .mul_up_mag(x)?
        .mul_up_mag(p.c)?
        .mul_up_mag(p.c)?
        .add(y.mul_up_mag(y)?.mul_up_mag(p.s)?.mul_up_mag(p.s)?)?;
    term_np = term_np.sub(x.mul_down_mag(y)?.mul_down_mag(p.c.mul(int(2))?)?.mul_down_mag(p.s)?)?;
    let mut term_xp =
        d.u.mul_xp(d.u)?
            .add(int(2).mul(d.u)?.mul_xp(d.v)?.div_down_mag(p.lambda)?)?
            .add(d.v.mul_xp(d.v)?.div_down_mag(p.lambda)?.div_down_mag(p.lambda)?)?;
    term_xp = term_xp.div_xp(d_sq4(d)?)?;
    let val = term_np.neg()?.mul_down_xp_to_np(term_xp)?;
    val.add(
        term_np
            .sub(int(9))?
            .div_down_mag(p.lambda)?
            .div_down_mag(p.lambda)?
            .mul_down_xp_to_np(one_xp().div_xp(d.d_sq)?)?,
    )
}

fn two_atx_aty_a_chix_a_chiy(x: I256, y: I256, p: &Params, d: &Derived) -> R {
    let two_c = int(2).mul(p.c)?;
    let mut term_np =
        x.mul_down_mag(x)?.sub(y.mul_up_mag(y)?)?.mul_down_mag(two_c)?.mul_down_mag(p.s)?;
    let xy = y.mul_down_mag(int(2).mul(x)?)?;
    term_np = term_np
        .add(xy.mul_down_mag(p.c)?.mul_down_mag(p.c)?)?
        .sub(xy.mul_down_mag(p.s)?.mul_down_mag(p.s)?)?;
    let mut term_xp =
        d.z.mul_xp(d.u)?.add(d.w.mul_xp(d.v)?.div_down_mag(p.lambda)?.div_down_mag(p.lambda)?)?;
    term_xp = term_xp.add(d.w.mul_xp(d.u)?.add(d.z.mul_xp(d.v)?)?.div_down_mag(p.lambda)?)?;
    term_xp = term_xp.div_xp(d_sq4(d)?)?;
    term_np.mul_down_xp_to_np(term_xp)
}

fn min_aty_a_chix_sq_plus_aty_sq(x: I256, y: I256, p: &Params, d: &Derived) -> R {
    let mut term_np = x
        .mul_up_mag(x)?
        .mul_up_mag(p.s)?
        .mul_up_mag(p.s)?
        .add(y.mul_up_mag(y)?.mul_up_mag(p.c)?.mul_up_mag(p.c)?)?;
    term_np = term_np.add(x.mul_up_mag(y)?.mul_up_mag(p.s.mul(int(2))?)?.mul_up_mag(p.c)?)?;
    let mut term_xp =
        d.z.mul_xp(d.z)?.add(d.w.mul_xp(d.w)?.div_down_mag(p.lambda)?.div_down_mag(p.lambda)?)?;
    term_xp = term_xp.add(int(2).mul(d.z)?.mul_xp(d.w)?.div_down_mag(p.lambda)?)?;
    term_xp = term_xp.div_xp(d_sq4(d)?)?;
    let val = term_np.neg()?.mul_down_xp_to_np(term_xp)?;
    val.add(term_np.sub(int(9))?.mul_down_xp_to_np(one_xp().div_xp(d.d_sq)?)?)
}

fn invariant_sqrt(x: I256, y: I256, p: &Params, d: &Derived) -> Result<(I256, I256), PoolError> {
    let val = min_atx_a_chiy_sq_plus_atx_sq(x, y, p, d)?
        .add(two_atx_aty_a_chix_a_chiy(x, y, p, d)?)?
        .add(min_aty_a_chix_sq_plus_aty_sq(x, y, p, d)?)?;
    let err = x.mul_up_mag(x)?.add(y.mul_up_mag(y)?)?.div(one_xp())?;
    Ok((sqrt_signed(val)?, err))
}

/// What `amount_in` (upscaled, fee taken) buys of the other token (upscaled) at the upscaled
/// balances and the invariant vector r; the pool's checked subtraction refuses a negative output.
pub fn out_given_in(
    balances: [U256; 2],
    amount_in: U256,
    token_in_is_token0: bool,
    p: &Params,
    d: &Derived,
    r: &Vector2,
) -> Result<U256, PoolError> {
    let (ix_in, ix_out) = if token_in_is_token0 { (0, 1) } else { (1, 0) };
    let balance_in_new =
        I256::from_unsigned(balances[ix_in].checked_add(amount_in).ok_or(PoolError::Overflow)?)?;
    let bound = if token_in_is_token0 { max_balance0(p, d, r)? } else { max_balance1(p, d, r)? };
    if !(balance_in_new <= max_balances() && balance_in_new <= bound) {
        return Err(PoolError::InsufficientLiquidity);
    }
    let balance_out_new = if token_in_is_token0 {
        let ab = Vector2 { x: virtual_offset0(p, d, r)?, y: virtual_offset1(p, d, r)? };
        solve_quadratic_swap(p.lambda, balance_in_new, p.s, p.c, r, &ab, &d.tau_beta, d.d_sq)?
    } else {
        let ba = Vector2 { x: virtual_offset1(p, d, r)?, y: virtual_offset0(p, d, r)? };
        let tau = Vector2 { x: d.tau_alpha.x.neg()?, y: d.tau_alpha.y };
        solve_quadratic_swap(p.lambda, balance_in_new, p.c, p.s, r, &ba, &tau, d.d_sq)?
    };
    balances[ix_out]
        .checked_sub(balance_out_new.to_unsigned().map_err(|_| PoolError::InsufficientLiquidity)?)
        .ok_or(PoolError::InsufficientLiquidity)
}

#[allow(clippy::too_many_arguments)]
fn solve_quadratic_swap(
    lambda: I256,
    x: I256,
    s: I256,
    c: I256,
    r: &Vector2,
    ab: &Vector2,
    tau_beta: &Vector2,
    d_sq: I256,
) -> R {
    let lam_bar = Vector2 {
        x: one_xp().sub(one_xp().div_down_mag(lambda)?.div_down_mag(lambda)?)?,
        y: one_xp().sub(one_xp().div_up_mag(lambda)?.div_up_mag(lambda)?)?,
    };
    let xp = x.sub(ab.x)?;
    let qb = if xp.is_positive() {
        xp.neg()?.mul_down_mag(s)?.mul_down_mag(c)?.mul_up_xp_to_np(lam_bar.y.div_xp(d_sq)?)?
    } else {
        xp.neg()?
            .mul_up_mag(s)?
            .mul_up_mag(c)?
            .mul_up_xp_to_np(lam_bar.x.div_xp(d_sq)?.add(int(1))?)?
    };
    let s_term = Vector2 {
        x: one_xp().sub(lam_bar.y.mul_down_mag(s)?.mul_down_mag(s)?.div_xp(d_sq)?)?,
        y: one_xp()
            .sub(lam_bar.x.mul_up_mag(s)?.mul_up_mag(s)?.div_xp(d_sq.add(int(1))?)?.add(int(1))?)?,
    };
    let mut qc = xp_xp_div_lambda_lambda(x, r, lambda, s, c, tau_beta, d_sq)?.neg()?;
    qc = qc.add(r.y.mul_down_mag(r.y)?.mul_down_xp_to_np(s_term.y)?)?;
    qc = sqrt_signed(qc)?;
    let diff = qb.sub(qc)?;
    let qa = if diff.is_positive() {
        diff.mul_up_xp_to_np(one_xp().div_xp(s_term.y)?.add(int(1))?)?
    } else {
        diff.mul_up_xp_to_np(one_xp().div_xp(s_term.x)?)?
    };
    qa.add(ab.y)
}

#[allow(clippy::too_many_arguments)]
fn xp_xp_div_lambda_lambda(
    x: I256,
    r: &Vector2,
    lambda: I256,
    s: I256,
    c: I256,
    tau_beta: &Vector2,
    d_sq: I256,
) -> R {
    let sq_x = d_sq.mul_xp(d_sq)?;
    let sq_y = r.x.mul_up_mag(r.x)?;
    let two_s = int(2).mul(s)?;
    let two_c = int(2).mul(c)?;
    let mut term_xp = tau_beta.x.mul_xp(tau_beta.y)?.div_xp(sq_x)?;
    let mut qa = if term_xp.is_positive() {
        sq_y.mul_up_mag(two_s)?.mul_up_mag(c)?.mul_up_xp_to_np(term_xp.add(int(7))?)?
    } else {
        r.y.mul_down_mag(r.y)?.mul_down_mag(two_s)?.mul_down_mag(c)?.mul_up_xp_to_np(term_xp)?
    };
    let qb = if tau_beta.x.is_negative() {
        r.x.mul_up_mag(x)?
            .mul_up_mag(two_c)?
            .mul_up_xp_to_np(tau_beta.x.div_xp(d_sq)?.neg()?.add(int(3))?)?
    } else {
        r.y.neg()?
            .mul_down_mag(x)?
            .mul_down_mag(two_c)?
            .mul_up_xp_to_np(tau_beta.x.div_xp(d_sq)?)?
    };
    qa = qa.add(qb)?;
    term_xp = tau_beta.y.mul_xp(tau_beta.y)?.div_xp(sq_x)?.add(int(7))?;
    let mut qb = sq_y.mul_up_mag(s)?.mul_up_mag(s)?.mul_up_xp_to_np(term_xp)?;
    let qc =
        r.y.neg()?
            .mul_down_mag(x)?
            .mul_down_mag(two_s)?
            .mul_up_xp_to_np(tau_beta.y.div_xp(d_sq)?)?;
    qb = qb.add(qc)?.add(x.mul_up_mag(x)?)?;
    qb = if qb.is_positive() { qb.div_up_mag(lambda)? } else { qb.div_down_mag(lambda)? };
    qa = qa.add(qb)?;
    qa = if qa.is_positive() { qa.div_up_mag(lambda)? } else { qa.div_down_mag(lambda)? };
    term_xp = tau_beta.x.mul_xp(tau_beta.x)?.div_xp(sq_x)?.add(int(7))?;
    let val = sq_y.mul_up_mag(c)?.mul_up_mag(c)?;
    val.mul_up_xp_to_np(term_xp)?.add(qa)
}

/// r = (invariant + 2·err, invariant): an overestimate in x, an underestimate in y.
pub fn invariant_vector(invariant: I256, err: I256) -> Result<Vector2, PoolError> {
    Ok(Vector2 { x: invariant.add(int(2).mul(err)?)?, y: invariant })
}
