//! The wire form of a pool (JSON from TypeScript) and its decoding into a [`PoolState`].
//! See `docs/solver-wire-format.md` for the full format.

use super::registry::{spec, DexSpec, Model};
use super::{
    clmm, cpmm, dodo, gyro_eclp, lunarbase, maverick, sampled, solidly, stableswap, woofi,
    PoolState,
};
use crate::dex::DexId;
use serde::Deserialize;

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

/// The state, tagged by `model`; the tag must agree with the registry (or be `sampled`). Unboxed
/// though the families differ in size: it lives only while a pool is decoded.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum StateInput {
    ConstantProduct(cpmm::CpmmWire),
    Solidly(solidly::SolidlyWire),
    Concentrated(clmm::ClWire),
    Sampled(sampled::SampledWire),
    Woofi(woofi::WoofiWire),
    Stableswap(stableswap::StableSwapWire),
    DodoPmm(dodo::DodoWire),
    GyroEclp(gyro_eclp::GyroEclpWire),
    Lunarbase(lunarbase::LunarbaseWire),
    MaverickV2(maverick::MaverickWire),
}

impl StateInput {
    /// The id of another pool whose state this venue holds inside it (a Curve meta pool's base
    /// pool): the market keeps the two one venue (`market`, *one venue per shared state*).
    pub fn holds_pool(&self) -> Option<&str> {
        match self {
            StateInput::Stableswap(w) => w.base_pool.as_deref(),
            _ => None,
        }
    }
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

impl StateInput {
    fn model_name(&self) -> &'static str {
        match self {
            StateInput::ConstantProduct(_) => "constant_product",
            StateInput::Solidly(_) => "solidly",
            StateInput::Concentrated(_) => "concentrated",
            StateInput::Sampled(_) => "sampled",
            StateInput::Woofi(_) => "woofi",
            StateInput::Stableswap(_) => "stableswap",
            StateInput::DodoPmm(_) => "dodo_pmm",
            StateInput::GyroEclp(_) => "gyro_eclp",
            StateInput::Lunarbase(_) => "lunarbase",
            StateInput::MaverickV2(_) => "maverick_v2",
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
    let wrong = |s: &StateInput| PoolInputError::WrongModel { dex, model: s.model_name() };
    let state = match (entry.model, state) {
        (_, StateInput::Sampled(w)) => {
            PoolState::Sampled(sampled::SampledPool::from_wire(w, &entry)?)
        }
        (Model::ConstantProduct { .. }, StateInput::ConstantProduct(w)) => {
            PoolState::ConstantProduct(cpmm::CpmmPool::from_wire(w, &entry)?)
        }
        (Model::Solidly, StateInput::Solidly(w)) => {
            PoolState::Solidly(solidly::SolidlyPool::from_wire(w, &entry)?)
        }
        (Model::Concentrated(_), StateInput::Concentrated(w)) => {
            PoolState::Concentrated(clmm::ClPool::from_wire(w, &entry)?)
        }
        (Model::Woofi, StateInput::Woofi(w)) => PoolState::Woofi(woofi::WoofiPool::from_wire(w)?),
        (Model::StableSwap, StateInput::Stableswap(w)) => {
            PoolState::StableSwap(stableswap::StableSwapPool::from_wire(w)?)
        }
        (Model::DodoPmm, StateInput::DodoPmm(w)) => PoolState::Dodo(dodo::DodoPool::from_wire(w)?),
        (Model::GyroEclp, StateInput::GyroEclp(w)) => {
            PoolState::GyroEclp(gyro_eclp::GyroEclpPool::from_wire(w)?)
        }
        (Model::Lunarbase, StateInput::Lunarbase(w)) => {
            PoolState::Lunarbase(lunarbase::LunarbasePool::from_wire(w)?)
        }
        (Model::MaverickV2, StateInput::MaverickV2(w)) => {
            PoolState::MaverickV2(maverick::MaverickPool::from_wire(w)?)
        }
        (_, other) => return Err(wrong(&other)),
    };
    Ok(state)
}
