//! The water-filling reference's answer, as it crosses the boundary (`Solver::waterfill_json`).

use super::candidate::{Candidate, Strategy};
use super::Solve;
use crate::address::Address;
use crate::error::SolverError;
use crate::math::decimal::u256_string;
use crate::math::U256;
use crate::route::path::Overlay;
use crate::route::plan::{LegOut, StoppedBy};
use crate::route::slippage::min_out;
use serde::Serialize;

/// Fynd's water-filling route over our pools: the tree it executes, replayed exactly.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WaterfillPlan {
    #[serde(with = "u256_string")]
    pub amount_in: U256,
    /// What the tree delivers in tokenOut (raw units), every swap an exact `apply` on our models.
    #[serde(with = "u256_string")]
    pub expected_amount_out: U256,
    /// The tree's gas units (its merged swaps' legs).
    pub gas_units: u64,
    /// `gas_units` priced in tokenOut at the request's gas price (0 when not priced).
    #[serde(with = "u256_string")]
    pub gas_cost_in_token_out: U256,
    /// Which of Fynd's candidates won.
    pub strategy: Strategy,
    /// The tree's swaps in execution order (a token's swaps after every swap delivering it), each
    /// with its `minOut` at the request's slippage.
    pub swaps: Vec<LegOut>,
    /// The most hops a unit travels through the tree (see [`super::Tree::longest_walk`]): above
    /// `maxHops` when the tree merges at a token reached after different numbers of hops.
    pub longest_walk: usize,
    /// The allocation the tree was built from: paths and the fraction of amountIn each carried.
    pub paths: Vec<PathShareOut>,
    /// What that allocation pays as a plan of ours, one route per path run in order (each path's
    /// share of amountIn floored, the last taking the rest); None if a route cannot take its
    /// amount. Where a tree beats our plan, this says whether the allocation or the tree's merged
    /// swaps made the difference: a tree swaps a shared first pool once for two paths, a plan once
    /// per route, each rounding on its own.
    #[serde(serialize_with = "crate::route::plan::optional_amount")]
    pub routes_amount_out: Option<U256>,
    /// Candidate paths considered (discovered and enumerated).
    pub candidate_paths: usize,
    pub stopped_by: StoppedBy,
}

/// One path of the allocation.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathShareOut {
    pub path: Vec<Address>,
    pub pools: Vec<String>,
    /// Fraction of amountIn (Fynd's flow fraction; the tree re-splits by these at every token).
    pub share: f64,
}

/// The answer for `winner`, its swaps' minimums at `slippage_bps`.
pub fn answer(
    solve: &Solve,
    winner: &Candidate,
    candidate_paths: usize,
    slippage_bps: u32,
) -> Result<WaterfillPlan, SolverError> {
    let market = solve.market;
    let address =
        |pool: u32, side: u8| market.token_address(market.pool(pool).tokens[side as usize]);
    let swaps = winner
        .tree
        .swaps
        .iter()
        .map(|s| {
            Ok(LegOut {
                dex: market.pool(s.hop.pool).dex,
                pool_id: market.pool(s.hop.pool).id.clone(),
                token_in: address(s.hop.pool, s.hop.token_in),
                token_out: address(s.hop.pool, s.hop.token_out),
                amount_in: s.amount_in,
                amount_out: s.amount_out,
                min_out: min_out(s.amount_out, slippage_bps)?,
            })
        })
        .collect::<Result<_, SolverError>>()?;
    Ok(WaterfillPlan {
        amount_in: solve.amount_in,
        expected_amount_out: winner.tree.amount_out,
        gas_units: winner.tree.gas_units,
        gas_cost_in_token_out: solve.pricer.cost(winner.tree.gas_units),
        strategy: winner.strategy,
        longest_walk: winner.tree.longest_walk,
        swaps,
        paths: winner
            .shares
            .iter()
            .map(|&(p, share)| PathShareOut {
                path: solve.paths[p].tokens.iter().map(|t| market.token_address(*t)).collect(),
                pools: solve.paths[p].hops.iter().map(|h| market.pool(h.pool).id.clone()).collect(),
                share,
            })
            .collect(),
        routes_amount_out: as_routes(solve, winner),
        candidate_paths,
        stopped_by: if solve.deadline.stopped_in().is_some() {
            StoppedBy::Budget
        } else {
            StoppedBy::Converged
        },
    })
}

/// [`WaterfillPlan::routes_amount_out`] of `winner`'s allocation.
fn as_routes(solve: &Solve, winner: &Candidate) -> Option<U256> {
    let mut overlay = Overlay::new(solve.market);
    let mut left = solve.amount_in;
    let mut total = U256::ZERO;
    for (k, &(p, share)) in winner.shares.iter().enumerate() {
        let amount = match k.saturating_add(1) == winner.shares.len() {
            true => left,
            false => U256::try_from((f64::from(solve.amount_in) * share).floor()).ok()?.min(left),
        };
        left = left.saturating_sub(amount);
        if !amount.is_zero() {
            total = total.checked_add(overlay.run(&solve.paths[p], amount, None).ok()?.0)?;
        }
    }
    Some(total)
}
