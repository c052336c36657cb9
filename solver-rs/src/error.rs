//! The solver's one error type, grouped by what the caller should do about it.

use crate::pools::input::PoolInputError;
use std::fmt;

/// Every failure a solver call can report. The `Display` form starts with the class
/// (`invalid input:`, `unsupported:`, `no route:`, `internal:`) so the bindings can map it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The caller sent something malformed or out of range; fix the request.
    InvalidInput(String),
    /// A DEX kind without a model yet.
    Unsupported(String),
    /// The request is well formed, but the market cannot fill it.
    NoRoute(String),
    /// A bug: never expected.
    Internal(String),
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::InvalidInput(m) => write!(f, "invalid input: {m}"),
            SolverError::Unsupported(m) => write!(f, "unsupported: {m}"),
            SolverError::NoRoute(m) => write!(f, "no route: {m}"),
            SolverError::Internal(m) => write!(f, "internal: {m}"),
        }
    }
}

impl std::error::Error for SolverError {}

impl From<PoolInputError> for SolverError {
    fn from(err: PoolInputError) -> Self {
        match err {
            PoolInputError::Unsupported { .. } => SolverError::Unsupported(err.to_string()),
            _ => SolverError::InvalidInput(err.to_string()),
        }
    }
}

impl From<serde_json::Error> for SolverError {
    fn from(err: serde_json::Error) -> Self {
        SolverError::InvalidInput(err.to_string())
    }
}

impl SolverError {
    /// Prefixes the message with where the error happened, keeping its class.
    pub fn with_context(self, context: &str) -> SolverError {
        match self {
            SolverError::InvalidInput(m) => SolverError::InvalidInput(format!("{context}: {m}")),
            SolverError::Unsupported(m) => SolverError::Unsupported(format!("{context}: {m}")),
            SolverError::NoRoute(m) => SolverError::NoRoute(format!("{context}: {m}")),
            SolverError::Internal(m) => SolverError::Internal(format!("{context}: {m}")),
        }
    }
}
