//! Gyroscope's signed fixed point (`SignedFixedPoint`): 18 decimals ("normal precision") and 38
//! ("extra precision", XP), rounded by magnitude: `*_down_mag` truncates toward zero, `*_up_mag`
//! away from it, over int256's truncating `/` and `%`. The published `…U` forms skip overflow
//! checks; every operation here is checked, which gives the same result wherever the pool's bounds
//! on balances and parameters hold, and an error (never a wrapped value) where they do not.

use crate::math::signed::I256;
use crate::pools::PoolError;

type R = Result<I256, PoolError>;

pub fn one() -> I256 {
    I256::from_i128(1_000_000_000_000_000_000)
}

pub fn one_xp() -> I256 {
    I256::from_i128(100_000_000_000_000_000_000_000_000_000_000_000_000)
}

fn e19() -> I256 {
    I256::from_i128(10_000_000_000_000_000_000)
}

pub fn int(value: i128) -> I256 {
    I256::from_i128(value)
}

/// The fixed-point operations, as methods so the published expressions read left to right.
pub trait FixedPoint: Sized {
    fn mul_down_mag(self, b: I256) -> R;
    fn mul_up_mag(self, b: I256) -> R;
    fn div_down_mag(self, b: I256) -> R;
    fn div_up_mag(self, b: I256) -> R;
    fn mul_xp(self, b: I256) -> R;
    fn div_xp(self, b: I256) -> R;
    fn mul_down_xp_to_np(self, b: I256) -> R;
    fn mul_up_xp_to_np(self, b: I256) -> R;
}

impl FixedPoint for I256 {
    fn mul_down_mag(self, b: I256) -> R {
        self.mul(b)?.div(one())
    }

    fn mul_up_mag(self, b: I256) -> R {
        let product = self.mul(b)?;
        let unit = int(1);
        if product.is_positive() {
            product.sub(unit)?.div(one())?.add(unit)
        } else if product.is_negative() {
            product.add(unit)?.div(one())?.sub(unit)
        } else {
            Ok(I256::ZERO)
        }
    }

    fn div_down_mag(self, b: I256) -> R {
        if self.is_zero() {
            return Ok(I256::ZERO);
        }
        self.mul(one())?.div(b)
    }

    fn div_up_mag(self, b: I256) -> R {
        if self.is_zero() {
            return Ok(I256::ZERO);
        }
        let (a, b) = if b.is_negative() { (self.neg()?, b.neg()?) } else { (self, b) };
        let unit = int(1);
        if a.is_positive() {
            a.mul(one())?.sub(unit)?.div(b)?.add(unit)
        } else {
            a.mul(one())?.add(unit)?.div(b)?.sub(unit)
        }
    }

    fn mul_xp(self, b: I256) -> R {
        self.mul(b)?.div(one_xp())
    }

    fn div_xp(self, b: I256) -> R {
        self.mul(one_xp())?.div(b)
    }

    /// a (18 decimals) times b (38) to 18 decimals, toward negative infinity; b split at 19
    /// decimals so that neither partial product overflows.
    fn mul_down_xp_to_np(self, b: I256) -> R {
        let prod1 = self.mul(b.div(e19())?)?;
        let prod2 = self.mul(b.rem(e19())?)?;
        let sum = prod1.add(prod2.div(e19())?)?;
        if !prod1.is_negative() && !prod2.is_negative() {
            sum.div(e19())
        } else {
            sum.add(int(1))?.div(e19())?.sub(int(1))
        }
    }

    /// As [`FixedPoint::mul_down_xp_to_np`], toward positive infinity.
    fn mul_up_xp_to_np(self, b: I256) -> R {
        let prod1 = self.mul(b.div(e19())?)?;
        let prod2 = self.mul(b.rem(e19())?)?;
        let sum = prod1.add(prod2.div(e19())?)?;
        if !prod1.is_positive() && !prod2.is_positive() {
            sum.div(e19())
        } else {
            sum.sub(int(1))?.div(e19())?.add(int(1))
        }
    }
}
