//! uint256 operations as Solidity 0.8 (and SafeMath, and Vyper) check them: a result outside
//! [0, 2^256) or a division by zero is the pool's revert, returned as a [`PoolError`].

use super::U256;
use crate::pools::PoolError;

pub fn add(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_add(b).ok_or(PoolError::Overflow)
}

pub fn sub(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_sub(b).ok_or(PoolError::Overflow)
}

pub fn mul(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_mul(b).ok_or(PoolError::Overflow)
}

pub fn div(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_div(b).ok_or(PoolError::DivisionByZero)
}
