//! Solidity 0.8's checked uint256 arithmetic as the vault runs it (a wrap or a zero divisor
//! reverts), and its explicit narrowing casts, which truncate.

use crate::math::U256;
/// The checked operations are StableSwap's, which Vyper checks the same way.
pub use crate::pools::stableswap::math::{add, div, mul, sub};

/// 1e18: spreads, coefficients, gamma and the oracle's bound are fractions of it.
pub const E18: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

/// `uintN(x)`: the low `bits` bits.
pub fn truncate(x: U256, bits: usize) -> U256 {
    x & U256::MAX.wrapping_shr(256_usize.saturating_sub(bits))
}
