//! Why a pool model refused a swap. Models return these; they never panic.

use std::fmt;

/// A pool model's refusal, carrying the offending value where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolError {
    /// A division whose denominator was zero (empty reserve, zero liquidity where it is needed).
    DivisionByZero,
    /// A 256-bit (or narrower, where the contract uses a narrower type) result overflowed.
    Overflow,
    /// The pool cannot absorb the whole input: the contract would revert or fill partially.
    InsufficientLiquidity,
    /// The input asks for a token index the pool does not have, or the same token twice.
    BadDirection { token_in: usize, token_out: usize },
    /// The pool's state is inconsistent (a price outside its bounds, a missing parameter, ...).
    InvalidState(String),
    /// An iterative solve did not converge where the contract would revert (Solidly `!y`).
    NoConvergence,
    /// The contract refuses the trade by a rule of its own (a guard, its oracle, a pause), with
    /// the values that broke the rule.
    Refused(String),
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::DivisionByZero => f.write_str("division by zero"),
            PoolError::Overflow => f.write_str("arithmetic overflow"),
            PoolError::InsufficientLiquidity => f.write_str("insufficient liquidity for the input"),
            PoolError::BadDirection { token_in, token_out } => {
                write!(f, "no swap from token index {token_in} to {token_out}")
            }
            PoolError::InvalidState(why) => write!(f, "invalid pool state: {why}"),
            PoolError::NoConvergence => f.write_str("the invariant solve did not converge"),
            PoolError::Refused(why) => write!(f, "the pool refuses the trade: {why}"),
        }
    }
}

impl std::error::Error for PoolError {}
