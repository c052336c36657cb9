//! Maverick V2's pools as their exact-input `swap` pays: liquidity sits on ticks, each tick holding
//! reserves of both tokens (its bins' total), priced from its own reserves between its edges
//! (`tick_math.rs`); a swap walks the ticks in the price's direction (`walk.rs`), each direction
//! with its own fee, the protocol's share of the fee kept out of the tick. The model follows our
//! stand-in (`contracts/maverick/`, docs/dex-kinds.md "MAVERICK_V2"): every tick behaves as a
//! static bin's would. Tokens are listed A first, then B; the price is A per B, so A in moves the
//! active tick up. Proven against `test/crosscheck/maverick_v2.py`, a second implementation written
//! apart (`maverick_tests.rs`), which is proven against the stand-in on anvil.

mod bound;
#[cfg(test)]
#[path = "bound_tests.rs"]
mod bound_tests;
mod price_drift;
#[cfg(test)]
#[path = "price_drift_tests.rs"]
mod price_drift_tests;
#[cfg(test)]
#[path = "maverick_tests.rs"]
mod tests;
mod tick_math;
mod walk;

pub use walk::Swapped;

use super::cpmm::ReserveString;
use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::shape::{pieces_value, Piecewise};
use super::{OneWay, PoolError, PoolModel, SwapOutcome};
use crate::math::U256;
use crate::route::convex::curve::Curve;
use serde::Deserialize;
use tick_math::{tick_sqrt_price, ONE};

/// Wire state: the pool's `tickSpacing()`, `tokenAScale()`/`tokenBScale()` (10^(18 − decimals)),
/// `fee(true)`/`fee(false)` (D18), `getState().protocolFeeRatioD3` and `.activeTick`, and the
/// ticks read around the active one as `[tick, reserveA, reserveB]` (`getTick(tick)`, reserves
/// on the 18-decimal scale). Ticks not listed are taken as empty: a swap that would walk past the
/// last listed tick holding reserves is refused.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MaverickWire {
    pub tick_spacing: u32,
    pub token_scales: [ReserveString; 2],
    pub fees: [ReserveString; 2],
    pub protocol_fee_ratio_d3: u8,
    pub active_tick: i32,
    pub ticks: Vec<(i32, ReserveString, ReserveString)>,
}

/// One tick: its index, its edges' square-root prices (computed once at decoding: they depend on
/// the tick and the spacing only) and its reserves of A and B (18 decimals).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tick {
    pub index: i32,
    pub lower: U256,
    pub upper: U256,
    pub reserves: [U256; 2],
}

impl Tick {
    fn is_empty(&self) -> bool {
        self.reserves[0].is_zero() && self.reserves[1].is_zero()
    }
}

/// One Maverick V2 pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaverickPool {
    pub spacing: u32,
    /// 10^(18 − decimals) of A and B.
    pub scales: [U256; 2],
    /// The fee of A in and of B in, D18.
    pub fees: [U256; 2],
    pub protocol_fee_ratio_d3: U256,
    pub active_tick: i32,
    /// Ticks by index, strictly increasing.
    pub ticks: Vec<Tick>,
}

impl MaverickPool {
    /// The exact-input swap with no tick limit inside the listed ticks: refused when the input is
    /// not all used (the walk ran out of listed ticks), as the router's leg would be (its tick
    /// limit is the last listed tick with reserves, `contracts/router/MaverickV2Legs.sol`).
    fn swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<Swapped, PoolError> {
        let token_a_in = super::two_token_direction(token_in, token_out)?;
        let swapped = self.swap_to_limit(token_a_in, amount_in, None)?;
        if swapped.capped {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(swapped)
    }
}

impl PoolModel for MaverickPool {
    type Memo = ();

    /// The walk's pieces (`bound.rs`).
    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<Curve> {
        let pieces = self.bound_pieces(token_in, token_out);
        (!pieces.is_empty()).then(|| Curve::Piecewise(Piecewise::from_pieces(pieces)))
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        Ok(self.swap(token_in, token_out, amount_in)?.outcome())
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let swapped = self.swap(token_in, token_out, amount_in)?;
        Ok((swapped.outcome(), swapped.pool))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        self.marginal_rate(token_in, token_out).unwrap_or(0.0)
    }

    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        pieces_value(&self.bound_pieces(token_in, token_out), amount_in)
    }
}

impl FromWire for MaverickPool {
    type Wire = MaverickWire;

    /// Builds the pool from its wire state; refuses a spacing of 0, a scale that is not a power of
    /// ten up to 10^18, a fee of one or more, reserves beyond uint128, a tick listed twice and a
    /// tick whose edges are past the tick range (no liquidity can sit there).
    fn from_wire(wire: MaverickWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        let invalid = |why: String| PoolInputError::Invalid(format!("Maverick V2 pool: {why}"));
        if wire.tick_spacing == 0 {
            return Err(invalid("tickSpacing must be positive".into()));
        }
        let scales = wire.token_scales.map(|s| s.0);
        let powers: Vec<U256> = (0..=18u8).map(|d| U256::from(10u8).pow(U256::from(d))).collect();
        if scales.iter().any(|s| !powers.contains(s)) {
            return Err(invalid("token scales are 10^(18 − decimals)".into()));
        }
        let fees = wire.fees.map(|f| f.0);
        if fees.iter().any(|f| *f >= ONE) {
            return Err(invalid("fees are below 10^18".into()));
        }
        let mut ticks = Vec::with_capacity(wire.ticks.len());
        for (index, a, b) in wire.ticks {
            if a.0 > U256::from(u128::MAX) || b.0 > U256::from(u128::MAX) {
                return Err(invalid(format!("tick {index}: reserves are uint128")));
            }
            let edge = |t: Option<i32>| {
                t.and_then(|t| tick_sqrt_price(wire.tick_spacing, t).ok())
                    .ok_or_else(|| invalid(format!("tick {index} is past the tick range")))
            };
            let (lower, upper) = (edge(Some(index))?, edge(index.checked_add(1))?);
            ticks.push(Tick { index, lower, upper, reserves: [a.0, b.0] });
        }
        ticks.sort_by_key(|t| t.index);
        if ticks.windows(2).any(|w| w[0].index == w[1].index) {
            return Err(invalid("a tick is listed twice".into()));
        }
        Ok(MaverickPool {
            spacing: wire.tick_spacing,
            scales,
            fees,
            protocol_fee_ratio_d3: U256::from(wire.protocol_fee_ratio_d3),
            active_tick: wire.active_tick,
            ticks,
        })
    }
}
