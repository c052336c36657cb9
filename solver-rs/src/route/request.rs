//! The quote request as the solver receives it, validated before any search starts.

use crate::address::Address;
use crate::dex::DexId;
use crate::error::SolverError;
use crate::market::pool_overrides::PoolOverride;
use crate::math::decimal::u256_string;
use crate::math::U256;
use serde::Deserialize;

/// The deepest search: path counts grow exponentially and no useful route needs more, so a
/// request for more hops (the spec allows any count from 1) searches this many.
pub const MAX_HOPS: u32 = 4;
/// Hops searched when the request names none.
pub const DEFAULT_MAX_HOPS: u32 = 3;
/// The spec's slippage and fee denominator.
pub const BPS: u32 = 10_000;
/// The `timeBudgetMs` the engine accepts. The HTTP schema's range (the spec's 50..10000) lies
/// within it: the engine also takes the short budgets its own tests and benchmarks drive, and
/// `src/quote/requestBoundsAgree.test.ts` checks the two stay in step.
pub const TIME_BUDGET_MS: std::ops::RangeInclusive<u32> = 1..=10_000;

/// What the caller asks. Field meanings follow the spec's QuoteRequest.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct QuoteRequest {
    pub token_in: Address,
    pub token_out: Address,
    #[serde(with = "u256_string")]
    pub amount_in: U256,
    pub slippage_bps: u32,
    /// Any JSON integer ≥ 1 (0 is refused); searched up to [`MAX_HOPS`] ([`QuoteRequest::hops`]).
    pub max_hops: Option<HopCount>,
    pub split_enabled: Option<bool>,
    pub enforce_pool_disjoint: Option<bool>,
    pub allowed_dexes: Option<Vec<DexId>>,
    #[serde(default, with = "optional_u256")]
    pub gas_price_wei: Option<U256>,
    pub time_budget_ms: Option<u32>,
    /// With true, the plan's `metadata.phaseMs` gives the time spent in each phase (the service
    /// asks for it, for its metrics). Off by default: a plan's bytes then depend on its inputs
    /// alone, which the parity and determinism tests compare.
    pub time_phases: Option<bool>,
    /// This request's own state of some pools: a DODO_V2 pool's maintainer rate for the request's
    /// sender (`market/pool_overrides.rs`), applied to this request alone.
    pub pool_overrides: Option<Vec<PoolOverride>>,
}

/// A hop count as JSON sends it: any integer, however large. Integers past u64 arrive as floats
/// (serde_json has no wider integer), so an integral float counts too and saturates at u64::MAX;
/// a negative or fractional number is refused naming the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopCount(pub u64);

impl<'de> Deserialize<'de> for HopCount {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = HopCount;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("maxHops as an integer of at least 1")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<HopCount, E> {
                Ok(HopCount(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<HopCount, E> {
                u64::try_from(v)
                    .map(HopCount)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<HopCount, E> {
                if v.is_finite() && v >= 0.0 && v.fract() == 0.0 {
                    // `as` saturates: every integer past u64::MAX is more hops than any search.
                    #[allow(clippy::cast_possible_truncation)]
                    Ok(HopCount(v as u64))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
                }
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

mod optional_u256 {
    use crate::math::decimal::parse_u256;
    use crate::math::U256;
    use serde::{de::Error, Deserialize, Deserializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<U256>, D::Error> {
        let text = Option::<std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.map(|t| parse_u256(&t).map_err(D::Error::custom)).transpose()
    }
}

impl QuoteRequest {
    /// The hops to search: `maxHops` clamped to the engine's deepest search ([`MAX_HOPS`]), or
    /// [`DEFAULT_MAX_HOPS`] when absent.
    ///
    /// For example, `"maxHops": 2` searches 2 hops, and 5, 1e30 or an integer past `u64` search
    /// [`MAX_HOPS`] (`quote_tests.rs`, `more_hops_than_the_engine_searches_are_clamped_not_refused`).
    pub fn hops(&self) -> u32 {
        self.max_hops.map_or(DEFAULT_MAX_HOPS, |HopCount(hops)| {
            u32::try_from(hops).unwrap_or(MAX_HOPS).min(MAX_HOPS)
        })
    }

    /// Checks every bound; the error names the offending field.
    pub fn validate(&self) -> Result<(), SolverError> {
        let bad = |field: &str, reason: String| Err(SolverError::invalid(field, reason));
        if self.amount_in.is_zero() {
            return bad("amountIn", "must be positive".into());
        }
        if self.token_in == self.token_out {
            return bad("tokenOut", "tokenIn and tokenOut are the same token".into());
        }
        if self.slippage_bps > BPS {
            return bad("slippageBps", format!("{} is above {BPS}", self.slippage_bps));
        }
        if self.max_hops == Some(HopCount(0)) {
            return bad("maxHops", "must be at least 1".into());
        }
        if self.allowed_dexes.as_ref().is_some_and(Vec::is_empty) {
            return bad("allowedDexes", "must name at least one DexId".into());
        }
        if let Some(budget) = self.time_budget_ms {
            if !TIME_BUDGET_MS.contains(&budget) {
                return bad(
                    "timeBudgetMs",
                    format!(
                        "{budget} is outside {}..={}",
                        TIME_BUDGET_MS.start(),
                        TIME_BUDGET_MS.end()
                    ),
                );
            }
        }
        Ok(())
    }
}
