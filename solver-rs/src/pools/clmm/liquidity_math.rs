//! `LiquidityMath.addDelta`: active liquidity after crossing a tick.

use crate::pools::PoolError;

/// `liquidity + delta` as uint128; errors where the contract reverts (below zero, above 2^128 − 1).
pub fn add_delta(liquidity: u128, delta: i128) -> Result<u128, PoolError> {
    let result = if delta < 0 {
        liquidity.checked_sub(delta.unsigned_abs())
    } else {
        liquidity.checked_add(delta.unsigned_abs())
    };
    result.ok_or_else(|| PoolError::InvalidState(format!("liquidity {liquidity} cannot take a delta of {delta}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_subtracts_and_refuses_to_wrap() {
        assert_eq!(add_delta(1, 0), Ok(1));
        assert_eq!(add_delta(1, -1), Ok(0));
        assert_eq!(add_delta(1, 1), Ok(2));
        assert!(add_delta(0, -1).is_err());
        assert!(add_delta(u128::MAX, 1).is_err());
        assert_eq!(add_delta(u128::MAX, i128::MIN), Ok(u128::MAX - (1u128 << 127)));
    }
}
