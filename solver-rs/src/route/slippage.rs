//! The minimum a leg or a plan must pay: the expected amount less the request's slippage.

use super::request::BPS;
use crate::error::SolverError;
use crate::math::full_math::mul_div;
use crate::math::U256;

/// floor(amount · (10⁴ − slippage_bps) / 10⁴), in the amount's raw units, rounded down (the
/// minimum never promises more than the slippage allows).
///
/// The product is taken at 512 bits: with ruint's wrapping `*`, an amount above 2^256 / 10⁴ would
/// wrap to a tiny minimum and void the slippage protection. The quotient never exceeds `amount`,
/// so it always fits; the only error is a slippage above 10⁴ (refused by the request's checks).
///
/// For example, 50 bps off 1,000,000 leave 995,000, and `U256::MAX` at 0 bps is `U256::MAX`
/// (`slippage_tests.rs` checks every slippage at the largest amounts against a 512-bit reference).
pub fn min_out(amount: U256, slippage_bps: u32) -> Result<U256, SolverError> {
    let kept_bps = BPS.checked_sub(slippage_bps).ok_or_else(|| {
        SolverError::invalid("slippageBps", format!("{slippage_bps} is above {BPS}"))
    })?;
    mul_div(amount, U256::from(kept_bps), U256::from(BPS)).map_err(|e| {
        SolverError::internal(format!("minimum of {amount} at {slippage_bps} bps: {e}"))
    })
}

#[cfg(test)]
#[path = "slippage_tests.rs"]
mod tests;
