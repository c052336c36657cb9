//! 256-bit integer arithmetic shared by every pool family.

pub mod bisect;
pub mod checked;
pub mod decimal;
pub mod div;
pub mod full_math;
pub mod reciprocal;
pub mod signed;

/// The EVM word. Every token amount, reserve and Q-number in the solver is one.
pub type U256 = ruint::aliases::U256;
/// Double-width intermediate for exact `a * b / d`.
pub type U512 = ruint::aliases::U512;
