//! The most gas a plan may need: its transaction must fit the chain's per-transaction gas cap.
//!
//! Base enforces EIP-7825's cap of 2²⁴ = 16,777,216 gas per transaction (since its Azul / V1
//! upgrade, the same cap as L1 since Fusaka); a transaction asking for more is refused. A plan's
//! transaction is one `swapExactIn` call of our router, whose gas the service estimates as the
//! solver's gas for the legs plus the router's own (docs/quote.md, "Gas model"). So the cap is on
//! that estimate, with room for its error, computed from what the solver knows of the plan:
//!
//! - **legs**: the registry's gas per leg (base, crossings, empty bitmap words), without the L1
//!   data fee the market adds to every leg as a routing cost (`Market::leg_overhead_gas`, not
//!   execution gas);
//! - **per leg**, [`ROUTER_GAS_PER_LEG`]: the router's balance reads around the leg (2,000) and the
//!   leg's calldata at its largest (a UNIV4 leg: offset, six head words, the data's length and a
//!   five-word PoolKey, 416 bytes at 16 gas each: 6,656);
//! - **per route**, [`ROUTER_GAS_PER_ROUTE`]: the route's loop (1,800) and its calldata (offset,
//!   amountIn, the legs' offset and length: 128 bytes, 2,048);
//! - **per transaction**, [`ROUTER_GAS_FIXED`]: 21,000 intrinsic, the call (38,200), a native
//!   output (9,600) and an integrator fee (7,500) counted as if always paid, the fixed calldata
//!   with a permit (580 bytes, 9,280) and the permit's own execution (about 35,000);
//! - **error**: the gas model's estimates were within −7.4 %…+13.4 % of the gas used on every
//!   executed quote, and the end-to-end test holds them to 15 % (`test/e2e/executeQuotes.test.ts`):
//!   the estimate may use at most 85 % of the cap, [`MAX_PLAN_GAS`], so the gas used fits it.
//!
//! Calldata is counted at 16 gas a byte (every byte non-zero), an overestimate: the cap errs on
//! the side of a plan that executes. A plan of one route is never refused for its gas: no split
//! can do with less (crossings follow the pools' total flows), and the best single path is what
//! the plan is never worse than.

use super::path::Path;
use crate::market::Market;

/// EIP-7825's per-transaction gas cap, enforced on Base.
pub const TRANSACTION_GAS_CAP: u64 = 1 << 24;
/// The share of [`TRANSACTION_GAS_CAP`] a plan's estimate may use (room for the estimate's error).
const ESTIMATE_SHARE_PERCENT: u64 = 85;
/// The most gas a plan's estimate may need: 85 % of 2²⁴.
pub const MAX_PLAN_GAS: u64 = TRANSACTION_GAS_CAP * ESTIMATE_SHARE_PERCENT / 100;
/// The router's gas per leg outside the pool: balance reads and the leg's calldata at its largest.
pub const ROUTER_GAS_PER_LEG: u64 = 2_000 + 416 * 16;
/// The router's gas per route: its loop and calldata.
pub const ROUTER_GAS_PER_ROUTE: u64 = 1_800 + 128 * 16;
/// The router's gas per transaction: intrinsic, the call, native output, fee, fixed calldata and a
/// permit.
pub const ROUTER_GAS_FIXED: u64 = 21_000 + 38_200 + 9_600 + 7_500 + 580 * 16 + 35_000;

/// Gas units summed, saturating at u64::MAX: a saturated total is over every cap
/// ([`MAX_PLAN_GAS`]), so what would need it is refused, never wrapped into a small figure. The
/// one way gas figures are added up in routing.
pub fn total_gas(units: impl IntoIterator<Item = u64>) -> u64 {
    units.into_iter().fold(0, u64::saturating_add)
}

/// A plan's transaction gas, as the cap counts it, from the solver's gas for its legs.
#[derive(Clone, Copy, Debug)]
pub struct GasCap {
    /// The market's per-leg L1 overhead, included in every leg's gas units and taken out here.
    l1_gas_per_leg: u64,
}

impl GasCap {
    pub fn of(market: &Market) -> GasCap {
        GasCap::with_leg_overhead(market.leg_overhead_gas())
    }

    /// The cap of a market whose legs carry `l1_gas_per_leg` of L1 overhead.
    pub fn with_leg_overhead(l1_gas_per_leg: u64) -> GasCap {
        GasCap { l1_gas_per_leg }
    }

    /// The transaction gas of routes whose legs cost `legs_gas` gas units (the solver's, L1
    /// overhead included) over `legs` legs and `routes` routes.
    pub fn plan_gas(&self, legs_gas: u64, legs: usize, routes: usize) -> u64 {
        let (legs, routes) =
            (u64::try_from(legs).unwrap_or(u64::MAX), u64::try_from(routes).unwrap_or(u64::MAX));
        legs_gas
            .saturating_sub(self.l1_gas_per_leg.saturating_mul(legs))
            .saturating_add(ROUTER_GAS_PER_LEG.saturating_mul(legs))
            .saturating_add(ROUTER_GAS_PER_ROUTE.saturating_mul(routes))
            .saturating_add(ROUTER_GAS_FIXED)
    }

    /// Whether routes with these figures fit: under [`MAX_PLAN_GAS`], or a single route.
    pub fn admits(&self, legs_gas: u64, legs: usize, routes: usize) -> bool {
        routes <= 1 || self.plan_gas(legs_gas, legs, routes) <= MAX_PLAN_GAS
    }

    /// What opening `path` adds before any tick crossing: its legs' base gas (the registry's, less
    /// the L1 overhead) and the router's per-leg and per-route gas.
    pub fn opening_gas(&self, market: &Market, path: &Path) -> u64 {
        let legs = u64::try_from(path.hops.len()).unwrap_or(u64::MAX);
        let base = total_gas(path.hops.iter().map(|hop| market.pool(hop.pool).spec.gas_base));
        base.saturating_sub(self.l1_gas_per_leg.saturating_mul(legs))
            .saturating_add(ROUTER_GAS_PER_LEG.saturating_mul(legs))
            .saturating_add(ROUTER_GAS_PER_ROUTE)
    }
}

#[cfg(test)]
#[path = "gas_cap_tests.rs"]
mod tests;
