//! The wire form of a pool (JSON from TypeScript) and its decoding into a [`PoolState`]: each
//! family reads its own state ([`FromWire`]), under the `model` tag the family list gives it
//! (`families.rs`).
//! See `docs/solver-wire-format.md` for the full format.

pub use super::families::StateInput;
use super::registry::{spec, DexSpec, Model};
use super::PoolState;
use crate::dex::DexId;
use serde::Deserialize;

/// How a family's state is read from the wire (the registry models it serves are on its line of
/// the family list, `families.rs`).
pub trait FromWire: Sized {
    /// The state as TypeScript sends it under the family's `model` tag (`families.rs`).
    type Wire: std::fmt::Debug + Clone + for<'de> Deserialize<'de>;

    /// The state, checked (a malformed or out-of-range field is `Invalid`).
    fn from_wire(wire: Self::Wire, spec: &DexSpec) -> Result<Self, PoolInputError>;

    /// The id of another pool whose state this venue holds inside it (a Curve meta pool's base
    /// pool); None for the families whose venues hold no other.
    fn holds_pool(wire: &Self::Wire) -> Option<&str> {
        let _ = wire;
        None
    }
}

/// One pool as TypeScript sends it: identity, kind, tokens in the pool's own order, and state.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PoolInput {
    /// The pool's address, or its bytes32 pool id for singleton managers; unique per market.
    pub id: String,
    pub dex: DexId,
    /// Token addresses in the pool's order (token0, token1; a Curve pool's coins 0 to n − 1).
    pub tokens: Vec<String>,
    pub state: StateInput,
}

/// Why a pool input was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolInputError {
    /// The kind has no model yet (see the registry).
    Unsupported { dex: DexId, reason: &'static str },
    /// The state's `model` is not the one the registry gives this kind.
    WrongModel { dex: DexId, model: &'static str },
    /// A field is missing, malformed or out of range.
    Invalid(String),
}

impl std::fmt::Display for PoolInputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolInputError::Unsupported { dex, reason } => {
                write!(f, "{dex} is unsupported: {reason}")
            }
            PoolInputError::WrongModel { dex, model } => {
                write!(f, "{dex} pools cannot use the {model} model")
            }
            PoolInputError::Invalid(why) => f.write_str(why),
        }
    }
}

/// Decodes a pool's state, checking it against the registry entry of its kind.
///
/// A `sampled` state is accepted for any modelled kind: it is how a pool that cannot be priced
/// exactly (a V4 pool with hooks, say) still takes part, with a safety margin.
pub fn decode_state(dex: DexId, state: StateInput) -> Result<PoolState, PoolInputError> {
    let entry: DexSpec = spec(dex);
    if let Model::Unsupported { reason } = entry.model {
        return Err(PoolInputError::Unsupported { dex, reason });
    }
    state.decode(&entry)
}
