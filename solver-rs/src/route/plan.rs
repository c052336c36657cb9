//! The solver's answer, as it crosses the boundary (see `docs/solver-wire-format.md`).

use super::clock::{Phase, PhaseMs};
use crate::address::Address;
use crate::dex::DexId;
use crate::math::decimal::u256_string;
use crate::math::U256;
use serde::Serialize;

/// Integer-exact routes replayed through the exact models, plus what the search considered.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    #[serde(with = "u256_string")]
    pub amount_in: U256,
    /// The sum of the routes' outputs.
    #[serde(with = "u256_string")]
    pub expected_amount_out: U256,
    /// floor(expected · (10⁴ − slippageBps) / 10⁴).
    #[serde(with = "u256_string")]
    pub min_amount_out: U256,
    pub gas_units: u64,
    /// `gas_units` priced in tokenOut at the request's gas price (0 when not priced).
    #[serde(with = "u256_string")]
    pub gas_cost_in_token_out: U256,
    pub routes: Vec<RouteOut>,
    pub metadata: Metadata,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteOut {
    #[serde(with = "u256_string")]
    pub amount_in: U256,
    #[serde(with = "u256_string")]
    pub amount_out: U256,
    pub legs: Vec<LegOut>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LegOut {
    pub dex: DexId,
    pub pool_id: String,
    pub token_in: Address,
    pub token_out: Address,
    #[serde(with = "u256_string")]
    pub amount_in: U256,
    #[serde(with = "u256_string")]
    pub amount_out: U256,
    /// floor(amountOut · (10⁴ − slippageBps) / 10⁴).
    #[serde(with = "u256_string")]
    pub min_out: U256,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    pub connectors_considered: Vec<Address>,
    /// Complete paths the search reached.
    pub candidate_paths: usize,
    /// Routes in the plan.
    pub selected_paths: usize,
    /// The candidates given to the split optimizer, in route order.
    pub candidates: Vec<CandidateOut>,
    pub stopped_by: StoppedBy,
    /// With `budget`: the phase the deadline stopped first (absent when converged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_in: Option<Phase>,
    /// Milliseconds spent in each phase the solve entered (the final replay not included).
    #[serde(skip_serializing_if = "PhaseMs::is_empty")]
    pub phase_ms: PhaseMs,
    /// The certified upper bound on what any routing of amountIn over the venues of this quote
    /// could pay (raw tokenOut, gas ignored), when it was computed (docs/solver-optimizer.md).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "optional_amount")]
    pub upper_bound: Option<U256>,
    /// 10⁴·(upperBound − expectedAmountOut)/upperBound, with `upperBound`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_bps: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateOut {
    pub path: Vec<Address>,
    pub dexes: Vec<DexId>,
    /// Output if this path took the whole amount alone (0 if it cannot, or if the time budget ran
    /// out before it was quoted at the whole amount).
    #[serde(with = "u256_string")]
    pub projected_out: U256,
    /// Input the plan gives this path.
    #[serde(with = "u256_string")]
    pub allocated_in: U256,
    /// Whole-amount output net of gas relative to the best candidate's (1 = best, 0 = cannot fill
    /// or not quoted at the whole amount before the deadline).
    pub score: f64,
}

/// Why the solve stopped: it ran out of improvements, or out of time (in any phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum StoppedBy {
    Converged,
    Budget,
}

/// An optional amount as a decimal string, or null when absent (the plan's own fields are skipped
/// when absent, so only the water-filling answer writes a null).
pub(crate) fn optional_amount<S: serde::Serializer>(
    value: &Option<U256>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(amount) => u256_string::serialize(amount, serializer),
        None => serializer.serialize_none(),
    }
}
