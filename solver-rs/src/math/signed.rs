//! int256 as Solidity 0.8 computes it, over the EVM word in two's complement: `+`, `−`, `×` checked
//! (a result outside [−2^255, 2^255) is an error), `/` and `%` truncating toward zero. For the
//! families whose published math is signed (Gyroscope's E-CLP).

use super::U256;
use crate::pools::PoolError;
use std::cmp::Ordering;

/// A signed 256-bit integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct I256(U256);

const SIGN: U256 = U256::from_limbs([0, 0, 0, 1 << 63]);

// Checked forms named as the operators they check: they return a Result, so they are not the
// operator traits.
#[allow(clippy::should_implement_trait)]
impl I256 {
    pub const ZERO: I256 = I256(U256::ZERO);

    /// From a sign and a magnitude; an error outside int256.
    pub fn from_parts(negative: bool, magnitude: U256) -> Result<I256, PoolError> {
        if negative {
            if magnitude > SIGN {
                return Err(PoolError::Overflow);
            }
            Ok(I256(magnitude.wrapping_neg()))
        } else if magnitude >= SIGN {
            Err(PoolError::Overflow)
        } else {
            Ok(I256(magnitude))
        }
    }

    /// A non-negative value from an unsigned one (`int256(x)`: an error at 2^255 or more).
    pub fn from_unsigned(value: U256) -> Result<I256, PoolError> {
        I256::from_parts(false, value)
    }

    /// A small constant.
    pub fn from_i128(value: i128) -> I256 {
        let magnitude = U256::from(value.unsigned_abs());
        I256(if value < 0 { magnitude.wrapping_neg() } else { magnitude })
    }

    pub fn is_negative(self) -> bool {
        self.0 >= SIGN
    }

    pub fn is_positive(self) -> bool {
        !self.is_negative() && !self.0.is_zero()
    }

    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }

    /// |self| (2^255 for int256's minimum).
    pub fn magnitude(self) -> U256 {
        if self.is_negative() {
            self.0.wrapping_neg()
        } else {
            self.0
        }
    }

    /// `uint256(self)` for a non-negative value; an error for a negative one.
    pub fn to_unsigned(self) -> Result<U256, PoolError> {
        if self.is_negative() {
            Err(PoolError::Overflow)
        } else {
            Ok(self.0)
        }
    }

    pub fn add(self, other: I256) -> Result<I256, PoolError> {
        let sum = I256(self.0.wrapping_add(other.0));
        // Overflow exactly when both operands share a sign the sum does not.
        if self.is_negative() == other.is_negative() && sum.is_negative() != self.is_negative() {
            return Err(PoolError::Overflow);
        }
        Ok(sum)
    }

    pub fn sub(self, other: I256) -> Result<I256, PoolError> {
        let difference = I256(self.0.wrapping_sub(other.0));
        if self.is_negative() != other.is_negative()
            && difference.is_negative() != self.is_negative()
        {
            return Err(PoolError::Overflow);
        }
        Ok(difference)
    }

    pub fn neg(self) -> Result<I256, PoolError> {
        I256::ZERO.sub(self)
    }

    pub fn mul(self, other: I256) -> Result<I256, PoolError> {
        let magnitude =
            self.magnitude().checked_mul(other.magnitude()).ok_or(PoolError::Overflow)?;
        I256::from_parts(self.is_negative() != other.is_negative(), magnitude)
    }

    /// Truncating toward zero; an error for a zero divisor and for −2^255 / −1.
    pub fn div(self, other: I256) -> Result<I256, PoolError> {
        let magnitude =
            self.magnitude().checked_div(other.magnitude()).ok_or(PoolError::DivisionByZero)?;
        I256::from_parts(self.is_negative() != other.is_negative(), magnitude)
    }

    /// The remainder of [`I256::div`]: the dividend's sign.
    pub fn rem(self, other: I256) -> Result<I256, PoolError> {
        let magnitude =
            self.magnitude().checked_rem(other.magnitude()).ok_or(PoolError::DivisionByZero)?;
        I256::from_parts(self.is_negative(), magnitude)
    }
}

impl PartialOrd for I256 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for I256 {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Same sign: two's complement orders as unsigned.
            _ => self.0.cmp(&other.0),
        }
    }
}

impl std::fmt::Display for I256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_negative() {
            write!(f, "-{}", self.magnitude())
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl std::str::FromStr for I256 {
    type Err = String;

    fn from_str(text: &str) -> Result<I256, String> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let magnitude = super::decimal::parse_u256(digits)?;
        I256::from_parts(negative, magnitude).map_err(|_| format!("{text} is outside int256"))
    }
}

#[cfg(test)]
#[path = "signed_tests.rs"]
mod tests;
