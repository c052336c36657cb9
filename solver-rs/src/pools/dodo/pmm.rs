//! DODO V2's proactive market maker as its published libraries compute it (DODOEX/contractV2:
//! `DecimalMath`, `DODOMath`, `PMMPricing`): 18-decimal fixed point rounded down unless named
//! `ceil`, the curve's integral, its two quadratic solutions and the R states. Every operation,
//! its order and its rounding follow the published code (and `contracts/dodo/DodoPmmMath.sol`),
//! since a quote must pay exactly what the pools pay; SafeMath's reverts are `Err`s here, and the
//! one product DODO lets wrap to test for overflow (`ki · delta`, `i·delta · V1`) wraps here too.

use crate::math::checked::{add, div, mul, sub};
use crate::math::U256;
use crate::pools::PoolError;

/// 10^18: DODO's fixed-point one.
pub const ONE: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);
/// 10^36.
const ONE2: U256 = U256::from_limbs([0xb34b_9f10_0000_0000, 0x00c0_97ce_7bc9_0715, 0, 0]);

/// The pool's R state: which side is away from its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RState {
    /// Both reserves at their targets.
    One,
    /// Base below its target (someone bought base).
    AboveOne,
    /// Quote below its target (someone sold base).
    BelowOne,
}

impl RState {
    /// The stored `_RState_` value (0, 1, 2), or None for any other.
    pub fn from_stored(value: u64) -> Option<RState> {
        match value {
            0 => Some(RState::One),
            1 => Some(RState::AboveOne),
            2 => Some(RState::BelowOne),
            _ => None,
        }
    }
}

/// `PMMPricing.PMMState` after `adjustedTarget`: both targets filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmmState {
    pub i: U256,
    pub k: U256,
    pub b: U256,
    pub q: U256,
    pub b0: U256,
    pub q0: U256,
    pub r: RState,
}

fn mul_floor(target: U256, d: U256) -> Result<U256, PoolError> {
    div(mul(target, d)?, ONE)
}

fn div_floor(target: U256, d: U256) -> Result<U256, PoolError> {
    div(mul(target, ONE)?, d)
}

fn div_ceil(target: U256, d: U256) -> Result<U256, PoolError> {
    let a = mul(target, ONE)?;
    let quotient = div(a, d)?;
    // a − quotient·d is a's remainder: never negative, never overflowing.
    Ok(if a > mul(quotient, d)? { add(quotient, U256::from(1))? } else { quotient })
}

/// `DecimalMath.reciprocalFloor`: 10^36 / target.
pub fn reciprocal_floor(target: U256) -> Result<U256, PoolError> {
    div(ONE2, target)
}

/// DODO's Babylonian square root, from x/2 + 1.
fn sqrt(x: U256) -> Result<U256, PoolError> {
    let two = U256::from(2);
    let mut z = add(div(x, two)?, U256::from(1))?;
    let mut y = x;
    while z < y {
        y = z;
        z = div(add(div(x, z)?, z)?, two)?;
    }
    Ok(y)
}

/// i·(V1 − V2)·(1 − k + k·V0²/(V1·V2)), rounded down: what moving from V1 to V2 pays.
fn general_integrate(v0: U256, v1: U256, v2: U256, i: U256, k: U256) -> Result<U256, PoolError> {
    if v0.is_zero() {
        return Err(PoolError::InvalidState("DODO target is zero".into()));
    }
    let fair = mul(i, sub(v1, v2)?)?;
    if k.is_zero() {
        return div(fair, ONE);
    }
    let ratio = div_floor(div(mul(v0, v0)?, v1)?, v2)?;
    let penalty = mul_floor(k, ratio)?;
    div(mul(add(sub(ONE, k)?, penalty)?, fair)?, ONE2)
}

/// The target V0 of a side at V1 after `delta` of the other side moved at price i.
fn solve_for_target(v1: U256, delta: U256, i: U256, k: U256) -> Result<U256, PoolError> {
    if k.is_zero() {
        return add(v1, mul_floor(i, delta)?);
    }
    if v1.is_zero() {
        return Ok(U256::ZERO);
    }
    let ki = mul(mul(U256::from(4), k)?, i)?;
    let root = if ki.is_zero() {
        ONE
    } else {
        match ki.checked_mul(delta) {
            Some(product) => sqrt(add(div(product, v1)?, ONE2)?)?,
            None => sqrt(add(mul(div(ki, v1)?, delta)?, ONE2)?)?,
        }
    };
    let premium = add(div_floor(sub(root, ONE)?, mul(k, U256::from(2))?)?, ONE)?;
    mul_floor(v1, premium)
}

/// What selling `delta` at price i takes out of a side at V1 with target V0.
fn solve_for_trade(v0: U256, v1: U256, delta: U256, i: U256, k: U256) -> Result<U256, PoolError> {
    if v0.is_zero() {
        return Err(PoolError::InvalidState("DODO target is zero".into()));
    }
    if delta.is_zero() {
        return Ok(U256::ZERO);
    }
    if k.is_zero() {
        return Ok(mul_floor(i, delta)?.min(v1));
    }
    if k == ONE {
        let idelta = mul(i, delta)?;
        let temp = if idelta.is_zero() {
            U256::ZERO
        } else {
            match idelta.checked_mul(v1) {
                Some(product) => div(product, mul(v0, v0)?)?,
                None => div(mul(div(mul(delta, v1)?, v0)?, i)?, v0)?,
            }
        };
        return div(mul(v1, temp)?, add(temp, ONE)?);
    }
    let part2 = add(mul(div(mul(k, v0)?, v1)?, v0)?, mul(i, delta)?)?;
    let part1 = mul(sub(ONE, k)?, v1)?;
    let b_negative = part1 < part2;
    let b_abs = div(if b_negative { sub(part2, part1)? } else { sub(part1, part2)? }, ONE)?;
    let four_ac = mul_floor(mul(sub(ONE, k)?, U256::from(4))?, mul(mul_floor(k, v0)?, v0)?)?;
    let root = sqrt(add(mul(b_abs, b_abs)?, four_ac)?)?;
    let denominator = mul(sub(ONE, k)?, U256::from(2))?;
    let numerator = if b_negative {
        let n = sub(root, b_abs)?;
        if n.is_zero() {
            return Err(PoolError::InvalidState("DODOMath: should not be zero".into()));
        }
        n
    } else {
        add(b_abs, root)?
    };
    let v2 = div_ceil(numerator, denominator)?;
    Ok(v1.saturating_sub(v2))
}

impl PmmState {
    /// `adjustedTarget`: the target the R state leaves implicit (Q0 below one, B0 above one).
    pub fn adjusted(mut self) -> Result<PmmState, PoolError> {
        match self.r {
            RState::BelowOne => {
                self.q0 = solve_for_target(self.q, sub(self.b, self.b0)?, self.i, self.k)?;
            }
            RState::AboveOne => {
                let inverse = reciprocal_floor(self.i)?;
                self.b0 = solve_for_target(self.b, sub(self.q, self.q0)?, inverse, self.k)?;
            }
            RState::One => {}
        }
        Ok(self)
    }

    /// `sellBaseToken`: the quote paid for `pay_base` (before fees) and the R state after.
    pub fn sell_base(&self, pay_base: U256) -> Result<(U256, RState), PoolError> {
        let s = self;
        match s.r {
            RState::One => Ok((solve_for_trade(s.q0, s.q0, pay_base, s.i, s.k)?, RState::BelowOne)),
            RState::AboveOne => {
                let back_base = sub(s.b0, s.b)?;
                let back_quote = sub(s.q, s.q0)?;
                if pay_base < back_base {
                    let out = general_integrate(s.b0, add(s.b, pay_base)?, s.b, s.i, s.k)?;
                    Ok((out.min(back_quote), RState::AboveOne))
                } else if pay_base == back_base {
                    Ok((back_quote, RState::One))
                } else {
                    let rest = solve_for_trade(s.q0, s.q0, sub(pay_base, back_base)?, s.i, s.k)?;
                    Ok((add(back_quote, rest)?, RState::BelowOne))
                }
            }
            RState::BelowOne => {
                Ok((solve_for_trade(s.q0, s.q, pay_base, s.i, s.k)?, RState::BelowOne))
            }
        }
    }

    /// `sellQuoteToken`: the base paid for `pay_quote` (before fees) and the R state after.
    pub fn sell_quote(&self, pay_quote: U256) -> Result<(U256, RState), PoolError> {
        let s = self;
        let inverse = reciprocal_floor(s.i)?;
        match s.r {
            RState::One => {
                Ok((solve_for_trade(s.b0, s.b0, pay_quote, inverse, s.k)?, RState::AboveOne))
            }
            RState::AboveOne => {
                Ok((solve_for_trade(s.b0, s.b, pay_quote, inverse, s.k)?, RState::AboveOne))
            }
            RState::BelowOne => {
                let back_quote = sub(s.q0, s.q)?;
                let back_base = sub(s.b, s.b0)?;
                if pay_quote < back_quote {
                    let out = general_integrate(s.q0, add(s.q, pay_quote)?, s.q, inverse, s.k)?;
                    Ok((out.min(back_base), RState::BelowOne))
                } else if pay_quote == back_quote {
                    Ok((back_base, RState::One))
                } else {
                    let rest =
                        solve_for_trade(s.b0, s.b0, sub(pay_quote, back_quote)?, inverse, s.k)?;
                    Ok((add(back_base, rest)?, RState::AboveOne))
                }
            }
        }
    }
}

/// `DecimalMath.mulFloor`, for the pool's fees.
pub fn fee_of(amount: U256, rate: U256) -> Result<U256, PoolError> {
    mul_floor(amount, rate)
}
