//! PLACEHOLDER: replaced by the family's real model in this work.

use super::input::PoolInputError;
use super::registry::DexSpec;
use super::{PoolError, PoolModel, SwapOutcome};
use crate::math::U256;
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClWire {}

#[derive(Clone, Debug)]
pub struct ClPool {}

impl ClPool {
    pub fn from_wire(_wire: ClWire, spec: &DexSpec) -> Result<Self, PoolInputError> {
        Err(PoolInputError::Invalid(format!("{} placeholder", spec.dex)))
    }
}

impl PoolModel for ClPool {
    fn amount_out(&self, _i: usize, _j: usize, _a: U256) -> Result<SwapOutcome, PoolError> {
        Err(PoolError::InvalidState("placeholder".into()))
    }
    fn apply(&self, _i: usize, _j: usize, _a: U256) -> Result<(SwapOutcome, Self), PoolError> {
        Err(PoolError::InvalidState("placeholder".into()))
    }
    fn spot_price(&self, _i: usize, _j: usize) -> f64 {
        0.0
    }
}
