//! The quote request as the solver receives it, validated before any search starts.

use crate::address::Address;
use crate::dex::DexId;
use crate::error::SolverError;
use crate::math::decimal::u256_string;
use crate::math::U256;
use serde::Deserialize;

/// Hops beyond this are refused: path counts grow exponentially and no useful route needs more.
pub const MAX_HOPS: u32 = 4;
/// The spec's slippage and fee denominator.
pub const BPS: u32 = 10_000;

/// What the caller asks. Field meanings follow the spec's QuoteRequest.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct QuoteRequest {
    pub token_in: Address,
    pub token_out: Address,
    #[serde(with = "u256_string")]
    pub amount_in: U256,
    pub slippage_bps: u32,
    pub max_hops: Option<u32>,
    pub split_enabled: Option<bool>,
    pub enforce_pool_disjoint: Option<bool>,
    pub allowed_dexes: Option<Vec<DexId>>,
    #[serde(default, with = "optional_u256")]
    pub gas_price_wei: Option<U256>,
    pub time_budget_ms: Option<u32>,
}

mod optional_u256 {
    use crate::math::decimal::parse_u256;
    use crate::math::U256;
    use serde::{de::Error, Deserialize, Deserializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<U256>, D::Error> {
        let text = Option::<std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.map(|t| parse_u256(&t).map_err(D::Error::custom)).transpose()
    }
}

impl QuoteRequest {
    /// Checks every bound; the message names the offending field.
    pub fn validate(&self) -> Result<(), SolverError> {
        let bad = |m: String| Err(SolverError::InvalidInput(m));
        if self.amount_in.is_zero() {
            return bad("amountIn must be positive".into());
        }
        if self.token_in == self.token_out {
            return bad("tokenIn and tokenOut are the same token".into());
        }
        if self.slippage_bps > BPS {
            return bad(format!("slippageBps {} is above {BPS}", self.slippage_bps));
        }
        if let Some(hops) = self.max_hops {
            if hops == 0 || hops > MAX_HOPS {
                return bad(format!("maxHops {hops} is outside 1..={MAX_HOPS}"));
            }
        }
        if self.allowed_dexes.as_ref().is_some_and(Vec::is_empty) {
            return bad("allowedDexes must name at least one DexId".into());
        }
        if let Some(budget) = self.time_budget_ms {
            if !(1..=10_000).contains(&budget) {
                return bad(format!("timeBudgetMs {budget} is outside 1..=10000"));
            }
        }
        Ok(())
    }
}
