//! The solver's one error type, grouped by what the caller should do about it. Each variant
//! carries the values the caller needs (the field it sent wrong, the pool and kind it named), so
//! the bindings read them as properties: [`SolverError::code`] is the error's `code` across napi
//! and WASM, and no one parses the message.

use crate::dex::DexId;
use crate::pools::input::PoolInputError;
use std::fmt;

/// Every failure a solver call can report. The `Display` form starts with the class
/// (`invalid input:`, `unsupported:`, `no route:`, `internal:`) for logs; callers read the fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The caller sent something malformed or out of range; fix the request. `field` names it as
    /// the caller sent it: a request field (`slippageBps`), a config key (`defaultTimeBudgetMs`),
    /// `pool <id>` for a pool input, or the whole document (`request`, `pools`, …) when it did
    /// not parse.
    InvalidInput { field: String, reason: String },
    /// A DEX kind without a model yet: `pool` is the pool input that named it.
    Unsupported { pool: String, dex: DexId, reason: &'static str },
    /// The request is well formed, but the market cannot fill it.
    NoRoute { reason: String },
    /// A bug: never expected.
    Internal { reason: String },
}

/// The error codes, one a variant, as the bindings see them in `error.code`.
pub const ERROR_CODES: [&str; 4] = ["InvalidInput", "Unsupported", "NoRoute", "Internal"];

impl SolverError {
    /// `field` was sent wrong, for `reason`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> SolverError {
        SolverError::InvalidInput { field: field.into(), reason: reason.into() }
    }

    /// The market cannot fill the request, for `reason`.
    pub fn no_route(reason: impl Into<String>) -> SolverError {
        SolverError::NoRoute { reason: reason.into() }
    }

    /// A bug, described by `reason`.
    pub fn internal(reason: impl Into<String>) -> SolverError {
        SolverError::Internal { reason: reason.into() }
    }

    /// A pool input refused while decoding pool `pool`.
    pub fn of_pool(pool: &str, err: PoolInputError) -> SolverError {
        match err {
            PoolInputError::Unsupported { dex, reason } => {
                SolverError::Unsupported { pool: pool.into(), dex, reason }
            }
            other => SolverError::invalid(format!("pool {pool}"), other.to_string()),
        }
    }

    /// The variant's name: the `code` of the error the bindings throw (one of [`ERROR_CODES`]).
    pub fn code(&self) -> &'static str {
        match self {
            SolverError::InvalidInput { .. } => ERROR_CODES[0],
            SolverError::Unsupported { .. } => ERROR_CODES[1],
            SolverError::NoRoute { .. } => ERROR_CODES[2],
            SolverError::Internal { .. } => ERROR_CODES[3],
        }
    }

    /// What went wrong, without the class or the field (those travel as their own properties).
    pub fn reason(&self) -> String {
        match self {
            SolverError::InvalidInput { reason, .. }
            | SolverError::NoRoute { reason }
            | SolverError::Internal { reason } => reason.clone(),
            SolverError::Unsupported { dex, reason, .. } => {
                format!("{dex} is unsupported: {reason}")
            }
        }
    }

    /// The field the caller sent wrong, for [`SolverError::InvalidInput`].
    pub fn field(&self) -> Option<&str> {
        match self {
            SolverError::InvalidInput { field, .. } => Some(field),
            _ => None,
        }
    }
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::InvalidInput { field, reason } => {
                write!(f, "invalid input: {field}: {reason}")
            }
            SolverError::Unsupported { pool, .. } => {
                write!(f, "unsupported: pool {pool}: {}", self.reason())
            }
            SolverError::NoRoute { reason } => write!(f, "no route: {reason}"),
            SolverError::Internal { reason } => write!(f, "internal: {reason}"),
        }
    }
}

impl std::error::Error for SolverError {}

/// Writing JSON of the solver's own types cannot fail on any input; if it did, it is a bug.
impl From<serde_json::Error> for SolverError {
    fn from(err: serde_json::Error) -> Self {
        SolverError::internal(format!("writing JSON: {err}"))
    }
}

/// Reads the JSON document `document` (the call's argument: `request`, `pools`, …); a document
/// that does not parse is invalid input naming it.
pub fn parse_json<'a, T: serde::Deserialize<'a>>(
    document: &str,
    json: &'a str,
) -> Result<T, SolverError> {
    serde_json::from_str(json).map_err(|err| SolverError::invalid(document, err.to_string()))
}

#[cfg(test)]
#[path = "error_tests.rs"]
mod tests;
