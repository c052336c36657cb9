//! `LiquidityMath.addDelta`: active liquidity after crossing a tick.

use crate::pools::PoolError;

/// `liquidity + delta` as uint128; errors where the contract reverts (below zero, above 2^128 − 1).
pub fn add_delta(liquidity: u128, delta: i128) -> Result<u128, PoolError> {
    let result = if delta < 0 {
        liquidity.checked_sub(delta.unsigned_abs())
    } else {
        liquidity.checked_add(delta.unsigned_abs())
    };
    result.ok_or_else(|| {
        PoolError::InvalidState(format!("liquidity {liquidity} cannot take a delta of {delta}"))
    })
}

#[cfg(test)]
#[path = "liquidity_math_tests.rs"]
mod tests;
